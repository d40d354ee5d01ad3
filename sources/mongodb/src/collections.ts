import { SourceError, type ResourceSpec } from '@basin/sdk';
import type { Db } from 'mongodb';
import type { MongodbConfig } from './config.js';

/** a collection to read and the raw table it loads into */
export interface CollectionPlan {
  collection: string;
  resource: string;
  /** the incremental cursor field, when the collection is read incrementally */
  cursorField?: string;
}

/** a warehouse-safe resource name for a collection (`orders.v1` → `orders_v1`) */
export function resourceName(collection: string): string {
  const s = collection.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
  return /^[a-z_]/.test(s) ? s : `c_${s}`;
}

/**
 * The collections the config selects: the listed ones (views too), else every collection of the
 * database but the system ones. A listed or incremental collection that does not exist is named,
 * with a case hint; two collections that would load into one table are refused.
 */
export async function planCollections(db: Db, cfg: MongodbConfig): Promise<CollectionPlan[]> {
  const infos = await db.listCollections({}, { nameOnly: false, authorizedCollections: true }).toArray();
  const existing = infos.map((c) => c.name).filter((n) => !n.startsWith('system.'));
  const missing = (name: string, key: string) => {
    const near = existing.find((n) => n.toLowerCase() === name.toLowerCase());
    return new SourceError('not_found', `Collection "${name}" (${key}) was not found in database "${db.databaseName}"${near ? `; did you mean "${near}"? (names are case-sensitive)` : `; it has ${existing.length ? existing.slice(0, 20).join(', ') : 'no collections'}`}.`, { collection: name });
  };
  let names: string[];
  if (cfg.collections.length) {
    for (const c of cfg.collections) if (!existing.includes(c)) throw missing(c, 'collections');
    names = cfg.collections;
  } else {
    names = infos.filter((c) => c.type !== 'view' && !c.name.startsWith('system.')).map((c) => c.name).sort();
  }
  for (const c of Object.keys(cfg.incremental)) {
    if (!existing.includes(c)) throw missing(c, 'incremental');
    if (!names.includes(c)) throw new SourceError('invalid_config', `incremental names collection "${c}", which collections does not list; add it there or remove it from incremental.`);
  }
  const plans = names.map((collection) => ({ collection, resource: resourceName(collection), ...(cfg.incremental[collection] ? { cursorField: cfg.incremental[collection] } : {}) }));
  const seen = new Map<string, string>();
  for (const p of plans) {
    const other = seen.get(p.resource);
    if (other) throw new SourceError('invalid_config', `Collections "${other}" and "${p.collection}" would both load into table ${p.resource}; list only one of them in collections.`);
    seen.set(p.resource, p.collection);
  }
  return plans;
}

/** the resource of a planned collection: merged on `_id` when incremental, replaced otherwise */
export function toResource(p: CollectionPlan, database: string): ResourceSpec {
  return {
    name: p.resource,
    primaryKey: ['_id'],
    ...(p.cursorField ? { cursorField: p.cursorField, writeDisposition: 'merge' as const } : { writeDisposition: 'replace' as const }),
    description: `MongoDB collection ${database}.${p.collection}`,
  };
}
