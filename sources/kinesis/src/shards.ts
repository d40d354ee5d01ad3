import type { KinesisClient, Shard } from '@aws-sdk/client-kinesis';

/** What a sync remembers per shard: the last sequence number read, and whether a closed shard is done. */
export interface ShardPosition {
  sequence_number?: string;
  finished?: boolean;
}
export interface StreamState {
  shards: Record<string, ShardPosition>;
}

export async function listShards(client: KinesisClient, stream: string): Promise<Shard[]> {
  const { ListShardsCommand } = await import('@aws-sdk/client-kinesis');
  const out: Shard[] = [];
  let token: string | undefined;
  do {
    const r = await client.send(token ? new ListShardsCommand({ NextToken: token }) : new ListShardsCommand({ StreamName: stream }));
    out.push(...(r.Shards ?? []));
    token = r.NextToken;
  } while (token);
  return out;
}

/**
 * The shards to read, parents before children (after a split or merge a child's records all come
 * after its parents' ones). A child waits until every parent still listed is finished; finished
 * shards are skipped. Shards that aged out of the stream are simply no longer listed.
 */
export function readOrder(shards: Shard[], state: StreamState): Shard[] {
  const byId = new Map(shards.map((s) => [s.ShardId!, s]));
  const done = new Set(Object.entries(state.shards).filter(([, p]) => p.finished).map(([id]) => id));
  const order: Shard[] = [];
  const placed = new Set<string>();
  const visit = (s: Shard): void => {
    if (placed.has(s.ShardId!)) return;
    placed.add(s.ShardId!);
    for (const p of [s.ParentShardId, s.AdjacentParentShardId]) {
      const parent = p ? byId.get(p) : undefined;
      if (parent) visit(parent);
    }
    if (!done.has(s.ShardId!)) order.push(s);
  };
  for (const s of shards) visit(s);
  return order;
}

export function parentsOf(s: Shard): string[] {
  return [s.ParentShardId, s.AdjacentParentShardId].filter((p): p is string => !!p);
}
