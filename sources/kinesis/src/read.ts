import type { KinesisClient, _Record } from '@aws-sdk/client-kinesis';
import type { ReadItem, SourceContext } from '@basin/sdk';
import type { KinesisConfig } from './config.js';
import { listShards, parentsOf, readOrder, type StreamState } from './shards.js';

/** how much later than the local start of a read an arrival time may be and still count as before it */
export const ARRIVAL_MARGIN_MS = 2_000;

/** One warehouse row per Kinesis record. */
function toRows(records: _Record[], shardId: string, format: KinesisConfig['format'], bad: { n: number }): Record<string, unknown>[] {
  const dec = new TextDecoder();
  return records.map((r) => {
    const text = r.Data ? dec.decode(r.Data) : '';
    let data: unknown = text;
    if (format === 'json') {
      try {
        data = JSON.parse(text);
      } catch {
        data = null;
        bad.n++;
      }
    }
    return {
      shard_id: shardId,
      sequence_number: r.SequenceNumber,
      partition_key: r.PartitionKey ?? null,
      arrival_time: r.ApproximateArrivalTimestamp ? r.ApproximateArrivalTimestamp.toISOString() : null,
      data,
    };
  });
}

/**
 * Reads one stream from the saved positions, bounded: every shard is read up to the records that
 * had arrived when the read started (by their arrival time, with ARRIVAL_MARGIN_MS for clock skew;
 * later ones wait for the next sync) or until it is caught up, so a busy stream cannot keep a sync
 * running. Parents are read before their children; a child starts only once its
 * parents are finished. The whole shard map is yielded as state after each shard, so it is
 * committed together with the rows read before it.
 */
export async function* readStream(
  client: KinesisClient,
  ctx: SourceContext<KinesisConfig>,
  stream: string,
  resource: string,
  previous: StreamState | undefined,
): AsyncGenerator<ReadItem> {
  const { GetShardIteratorCommand, GetRecordsCommand } = await import('@aws-sdk/client-kinesis');
  // arrival times come from the server's clock (whole seconds on some implementations): a margin
  // keeps records that were already there at the start from looking later than it
  const cutoff = Date.now() + ARRIVAL_MARGIN_MS;
  const shards = await listShards(client, stream);
  const listed = new Set(shards.map((s) => s.ShardId!));
  const state: StreamState = { shards: {} };
  // positions of shards that aged out of the stream are dropped
  for (const [id, p] of Object.entries(previous?.shards ?? {})) if (listed.has(id)) state.shards[id] = { ...p };
  const bad = { n: 0 };
  let total = 0;
  for (const shard of readOrder(shards, state)) {
    const id = shard.ShardId!;
    const waiting = parentsOf(shard).filter((p) => listed.has(p) && !state.shards[p]?.finished);
    if (waiting.length) {
      ctx.log.info(`${stream}/${id}: waits for its parent shard(s) ${waiting.join(', ')} to be read to their end`);
      continue;
    }
    const pos = (state.shards[id] ??= {});
    const it = await client.send(
      new GetShardIteratorCommand(
        pos.sequence_number
          ? { StreamName: stream, ShardId: id, ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', StartingSequenceNumber: pos.sequence_number }
          : { StreamName: stream, ShardId: id, ShardIteratorType: 'TRIM_HORIZON' },
      ),
    );
    let iterator = it.ShardIterator;
    let emptyPages = 0;
    while (iterator) {
      if (ctx.signal.aborted) return;
      const r = await client.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: ctx.config.max_records_per_call }), { abortSignal: ctx.signal });
      const recs = r.Records ?? [];
      const cut = recs.findIndex((x) => (x.ApproximateArrivalTimestamp?.getTime() ?? 0) > cutoff);
      const take = cut >= 0 ? recs.slice(0, cut) : recs;
      if (take.length) {
        total += take.length;
        yield { kind: 'records', resource, records: toRows(take, id, ctx.config.format, bad) };
        pos.sequence_number = take[take.length - 1]!.SequenceNumber;
      }
      if (cut >= 0) break;
      if (!r.NextShardIterator) {
        // a closed shard read to its end: its children may start
        pos.finished = true;
        break;
      }
      if (!recs.length) {
        // an open shard is caught up; a closed one ends only when Kinesis returns no next iterator
        // (empty pages come before that, and while still behind), so a bounded number of tries
        const closed = !!shard.SequenceNumberRange?.EndingSequenceNumber;
        if ((!closed && !r.MillisBehindLatest) || ++emptyPages > 20) break;
      }
      iterator = r.NextShardIterator;
    }
    yield { kind: 'state', resource, state: { shards: structuredClone(state.shards) } };
  }
  if (bad.n) ctx.log.warn(`${stream}: ${bad.n} record(s) whose data is not JSON were loaded with data NULL (set format: text to keep them as text)`);
  ctx.log.info(`${stream}: ${total} record(s) read from ${shards.length} shard(s)`);
}
