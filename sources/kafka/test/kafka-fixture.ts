// The test broker (test/support/kafka.ts: a real Apache Kafka in KRaft mode) and helpers that drive
// it through kafkajs: topics, producing, and reading a consumer group's committed offsets.
import { Kafka, logLevel, Partitioners, type Producer } from 'kafkajs';
import { startKafka, type KafkaBroker } from '../../../test/support/kafka.js';

export interface KafkaFixture extends KafkaBroker {
  createTopic(name: string, partitions: number): Promise<void>;
  /** sends the messages in order; `partition` pins one, else the key decides */
  produce(topic: string, messages: { key?: string | null; value: string | null; partition?: number; headers?: Record<string, string> }[]): Promise<void>;
  /** the group's committed offset per partition (-1: none) */
  groupOffsets(group: string, topic: string): Promise<Record<number, number>>;
  highWaterMarks(topic: string): Promise<Record<number, number>>;
  /** one committed and one aborted transaction of JSON values */
  produceTransactions(topic: string, committed: string[], aborted: string[]): Promise<void>;
  /** deletes a partition's messages before `offset`, as retention would */
  deleteBefore(topic: string, partition: number, offset: number): Promise<void>;
  /** the kafkajs client of the PLAINTEXT listener, for consumers of the tests' own */
  kafka: Kafka;
  close(): Promise<void>;
}

export async function startKafkaFixture(): Promise<KafkaFixture> {
  const broker = await startKafka({ tls: true });
  const kafka = new Kafka({ clientId: 'basin-test', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  let producer: Producer | null = null;
  return {
    ...broker,
    async createTopic(name, partitions) {
      await admin.createTopics({ topics: [{ topic: name, numPartitions: partitions }], waitForLeaders: true });
    },
    async produce(topic, messages) {
      if (!producer) {
        producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
        await producer.connect();
      }
      for (let i = 0; i < messages.length; i += 5_000) {
        await producer.send({ topic, messages: messages.slice(i, i + 5_000).map((m) => ({ key: m.key ?? null, value: m.value, ...(m.partition !== undefined ? { partition: m.partition } : {}), ...(m.headers ? { headers: m.headers } : {}) })) });
      }
    },
    async groupOffsets(group, topic) {
      const [t] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
      return Object.fromEntries((t?.partitions ?? []).map((p) => [p.partition, Number(p.offset)]));
    },
    async highWaterMarks(topic) {
      return Object.fromEntries((await admin.fetchTopicOffsets(topic)).map((p) => [p.partition, Number(p.high)]));
    },
    async produceTransactions(topic, committed, aborted) {
      const tx = kafka.producer({ transactionalId: `basin-test-${topic}`, idempotent: true, maxInFlightRequests: 1 });
      await tx.connect();
      const ok = await tx.transaction();
      await ok.send({ topic, messages: committed.map((value) => ({ value })) });
      await ok.commit();
      const no = await tx.transaction();
      await no.send({ topic, messages: aborted.map((value) => ({ value })) });
      await no.abort();
      await tx.disconnect();
    },
    async deleteBefore(topic, partition, offset) {
      // kafkajs looks the leader up in metadata it has only for topics it was asked about
      await admin.fetchTopicMetadata({ topics: [topic] });
      await admin.deleteTopicRecords({ topic, partitions: [{ partition, offset: String(offset) }] });
    },
    kafka,
    async close() {
      await producer?.disconnect();
      await admin.disconnect();
      await broker.stop();
    },
  };
}
