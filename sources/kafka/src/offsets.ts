import type { Kafka } from 'kafkajs';

/** A topic's committed position per partition: the offset of the next message to read. */
export interface TopicState {
  topic: string;
  partitions: Record<string, number>;
}

export function isTopicState(v: unknown): v is TopicState {
  const s = v as TopicState | undefined;
  return !!s && typeof s.topic === 'string' && !!s.partitions && typeof s.partitions === 'object';
}

interface Coordinator {
  offsetCommit(req: { groupId: string; groupGenerationId: number; memberId: string; topics: { topic: string; partitions: { partition: number; offset: string }[] }[] }): Promise<{
    responses: { topic: string; partitions: { partition: number; errorCode: number }[] }[];
  }>;
}
interface Cluster {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  findGroupCoordinator(req: { groupId: string }): Promise<Coordinator>;
}

/**
 * Commits offsets to a consumer group that has no active member, as an administrator does
 * (OffsetCommit with generation -1 and no member id; what the Java AdminClient's
 * alterConsumerGroupOffsets sends). kafkajs offers this only through admin.setOffsets, which joins
 * the group (a rebalance per topic), so the request goes through the client's own cluster object,
 * built with the client's brokers, TLS and SASL settings.
 */
export async function commitGroupOffsets(kafka: Kafka, groupId: string, topics: TopicState[]): Promise<void> {
  const wanted = topics.filter((t) => Object.keys(t.partitions).length);
  if (!wanted.length) return;
  const create = Object.getOwnPropertySymbols(kafka).find((s) => s.description === 'private:Kafka:createCluster');
  const factory: unknown = create ? Reflect.get(kafka, create) : undefined;
  if (typeof factory !== 'function') throw new Error('this kafkajs version offers no cluster factory; pin kafkajs 2.2.x');
  const cluster = (factory as (o: object) => Cluster)({});
  await cluster.connect();
  try {
    const coordinator = await cluster.findGroupCoordinator({ groupId });
    const r = await coordinator.offsetCommit({
      groupId,
      groupGenerationId: -1,
      memberId: '',
      topics: wanted.map((t) => ({ topic: t.topic, partitions: Object.entries(t.partitions).map(([p, o]) => ({ partition: Number(p), offset: String(o) })) })),
    });
    const failed = r.responses.flatMap((t) => t.partitions.filter((p) => p.errorCode !== 0).map((p) => `${t.topic}/${p.partition} (error ${p.errorCode})`));
    if (failed.length) throw new Error(`the group refused the offsets of ${failed.join(', ')}`);
  } finally {
    await cluster.disconnect();
  }
}
