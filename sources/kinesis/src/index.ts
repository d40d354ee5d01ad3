import { defineSource, SourceError, type ResourceSpec } from '@basin/sdk';
import { describeError, makeClient, where } from './client.js';
import { KinesisConfig } from './config.js';
import { readStream } from './read.js';
import type { StreamState } from './shards.js';

/** a warehouse-safe resource name for a stream */
export function resourceName(stream: string): string {
  const s = stream.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
  return /^[a-z_]/.test(s) ? s : `s_${s}`;
}

function spec(stream: string, format: KinesisConfig['format']): ResourceSpec {
  return {
    name: resourceName(stream),
    columns: [
      { name: 'shard_id', type: 'VARCHAR', nullable: false },
      { name: 'sequence_number', type: 'VARCHAR', nullable: false },
      { name: 'partition_key', type: 'VARCHAR', nullable: true },
      { name: 'arrival_time', type: 'TIMESTAMPTZ', nullable: true },
      { name: 'data', type: format === 'json' ? 'JSON' : 'VARCHAR', nullable: true },
    ],
    primaryKey: ['shard_id', 'sequence_number'],
    cursorField: 'sequence_number',
    // merge on (shard, sequence): a record is never loaded twice, even if a position were replayed
    writeDisposition: 'merge',
    description: `Kinesis stream ${stream}`,
  };
}

async function streamNames(ctx: Parameters<typeof makeClient>[0]): Promise<string[]> {
  if (ctx.config.streams.length) return ctx.config.streams;
  const client = await makeClient(ctx);
  try {
    const { ListStreamsCommand } = await import('@aws-sdk/client-kinesis');
    const names: string[] = [];
    let start: string | undefined;
    for (;;) {
      const r = await client.send(new ListStreamsCommand({ ...(start ? { ExclusiveStartStreamName: start } : {}) }));
      names.push(...(r.StreamNames ?? []));
      if (!r.HasMoreStreams || !r.StreamNames?.length) break;
      start = r.StreamNames[r.StreamNames.length - 1];
    }
    return names;
  } finally {
    client.destroy();
  }
}

/**
 * Kinesis data streams into the warehouse: one table per stream, every shard read from its saved
 * sequence number up to what had arrived when the sync started, resharding followed parent-first.
 */
export default defineSource({
  type: 'kinesis',
  title: 'Kinesis',
  category: 'stream',
  authKind: 'serviceAccount',
  wizard: true,
  configKey: 'generic',
  configSchema: KinesisConfig,
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  discoverSelects: true,
  async check(ctx) {
    try {
      const names = await streamNames(ctx);
      const client = await makeClient(ctx);
      try {
        const { DescribeStreamSummaryCommand } = await import('@aws-sdk/client-kinesis');
        for (const s of ctx.config.streams) await client.send(new DescribeStreamSummaryCommand({ StreamName: s }));
      } finally {
        client.destroy();
      }
      return { ok: true, message: `Connected to ${where(ctx.config)}; ${names.length} stream(s) to read.` };
    } catch (e) {
      return { ok: false, message: describeError(e, ctx.config).message };
    }
  },
  async discover(ctx) {
    try {
      return (await streamNames(ctx)).map((s) => spec(s, ctx.config.format));
    } catch (e) {
      throw describeError(e, ctx.config);
    }
  },
  async *read(ctx, resources, state) {
    const wanted = new Set(resources.map((r) => r.name));
    let names: string[];
    try {
      names = await streamNames(ctx);
    } catch (e) {
      throw describeError(e, ctx.config);
    }
    const client = await makeClient(ctx);
    try {
      for (const stream of names) {
        const resource = resourceName(stream);
        if (!wanted.has(resource)) continue;
        const saved = state[resource]?.shards;
        const prev: StreamState | undefined = !ctx.options.fullRefresh && saved && typeof saved === 'object' ? { shards: saved as StreamState['shards'] } : undefined;
        yield* readStream(client, ctx, stream, resource, prev);
      }
    } catch (e) {
      if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
      throw describeError(e, ctx.config);
    } finally {
      client.destroy();
    }
  },
});
