import { getPath, SourceError, type ReadItem, type ResourceSpec, type SourceContext } from '@basin/sdk';
import { BSON, type Document, type Filter, type MongoClient, type Sort } from 'mongodb';
import { connect, describeError } from './client.js';
import { planCollections, type CollectionPlan } from './collections.js';
import type { MongodbConfig } from './config.js';
import { documentRow, plainValue } from './values.js';

/**
 * Cursor state per collection, committed by the engine with the rows read before it: the position
 * of the last document read in (cursor field, _id) order, kept as canonical Extended JSON so its
 * BSON types (Date, ObjectId, Int64, Decimal128...) come back exactly for the next query.
 */
export interface CursorState {
  cursor_field: string;
  /** the last cursor value, readable (for status pages and logs) */
  last_value: unknown;
  /** canonical Extended JSON of { v: last cursor value, id: last _id } */
  position: string;
}

interface Position {
  v: unknown;
  id: unknown;
}

const DAY_MS = 86_400_000;

/** the saved position of a collection, unless this is a full refresh or the cursor field changed */
export function previousPosition(s: Record<string, unknown> | undefined, field: string, ctx: SourceContext<MongodbConfig>, collection: string): Position | undefined {
  if (!s || ctx.options.fullRefresh || typeof s.position !== 'string') return undefined;
  if (s.cursor_field !== field) {
    ctx.log.warn(`${collection}: the cursor field changed from ${String(s.cursor_field)} to ${field}; reading the whole collection again`);
    return undefined;
  }
  return BSON.EJSON.parse(s.position, { relaxed: false }) as Position;
}

/**
 * The filter and order of one collection's read. Incremental reads go in (field, _id) order and
 * resume strictly after the saved (value, _id), so documents sharing a cursor value are neither
 * skipped nor read twice; with `lookback_days` and a date cursor they re-read the last days instead
 * (merged on _id, so nothing is duplicated). Documents without the field sort first and are read
 * only on a first or full load.
 */
export function buildQuery(field: string | undefined, prev: Position | undefined, lookbackDays: number | undefined): { filter: Document; sort?: Sort } {
  if (!field) return { filter: {} };
  const sort: Sort = field === '_id' ? { _id: 1 } : { [field]: 1, _id: 1 };
  if (!prev) return { filter: {}, sort };
  if (field === '_id') return { filter: { _id: { $gt: prev.id } }, sort };
  if (lookbackDays && prev.v instanceof Date) return { filter: { [field]: { $gte: new Date(prev.v.getTime() - lookbackDays * DAY_MS) } }, sort };
  if (prev.v === null || prev.v === undefined) return { filter: { $or: [{ [field]: { $exists: true, $ne: null } }, { [field]: null, _id: { $gt: prev.id } }] }, sort };
  return { filter: { $or: [{ [field]: { $gt: prev.v } }, { [field]: prev.v, _id: { $gt: prev.id } }] }, sort };
}

/**
 * Reads every requested collection of the database in batches of `batch_size` (the driver's own
 * batches, no per-document await), yielding the cursor position after each batch.
 */
export async function* readCollections(ctx: SourceContext<MongodbConfig>, resources: ResourceSpec[], state: Record<string, Record<string, unknown>>): AsyncGenerator<ReadItem> {
  const conn = await connect(ctx);
  const onAbort = () => void conn.client.close(true).catch(() => undefined);
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const db = conn.client.db(conn.database);
    const wanted = new Set(resources.map((r) => r.name));
    for (const plan of await planCollections(db, ctx.config)) {
      if (!wanted.has(plan.resource)) continue;
      yield* readCollection(conn.client, conn.database, ctx, plan, state[plan.resource]);
    }
  } catch (e) {
    if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
    throw describeError(e, ctx, conn.where);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    await conn.client.close().catch(() => undefined);
  }
}

async function* readCollection(client: MongoClient, database: string, ctx: SourceContext<MongodbConfig>, plan: CollectionPlan, saved: Record<string, unknown> | undefined): AsyncGenerator<ReadItem> {
  const field = plan.cursorField;
  const prev = field ? previousPosition(saved, field, ctx, plan.collection) : undefined;
  const q = buildQuery(field, prev, ctx.options.lookbackDays);
  const size = ctx.config.batch_size;
  const cursor = client
    .db(database)
    .collection(plan.collection)
    .find(q.filter as Filter<Document>, { batchSize: size, ...(q.sort ? { sort: q.sort, allowDiskUse: true } : {}) });
  let total = 0;
  let last: Position | undefined;
  let batch: Record<string, unknown>[] = [];
  const flush = function* (): Generator<ReadItem> {
    if (!batch.length) return;
    total += batch.length;
    yield { kind: 'records', resource: plan.resource, records: batch };
    batch = [];
    if (field && last) {
      yield { kind: 'state', resource: plan.resource, state: { cursor_field: field, last_value: plainValue(last.v), position: BSON.EJSON.stringify(last, { relaxed: false }) } satisfies CursorState };
    }
  };
  try {
    while (await cursor.hasNext()) {
      if (ctx.signal.aborted) return;
      for (const doc of cursor.readBufferedDocuments()) {
        batch.push(documentRow(doc));
        if (field) last = { v: field === '_id' ? doc._id : (getPath(doc, field) ?? null), id: doc._id };
        if (batch.length >= size) yield* flush();
      }
    }
    yield* flush();
  } finally {
    await cursor.close().catch(() => undefined);
  }
  ctx.log.info(`${database}.${plan.collection}: ${total} document(s) read${prev ? ` after ${field} = ${JSON.stringify(plainValue(prev.v))}` : ''}`);
}
