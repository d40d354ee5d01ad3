// kafka load speed (not a test): N JSON messages in a 4-partition topic of a real Apache Kafka broker
// (KRaft, test/support/kafka.ts), read bare by a kafkajs consumer group (eachBatch, nothing done with
// the messages but counting them, up to the high-water marks) and synced by Basin into DuckDB
// (decode, JSON parse, load, merge on partition+offset, offsets committed), same process, same
// topic. Prints records/s of both and the ratio.
//   node --conditions=development --import tsx bench/kafka-load.ts [messages=1000000]
import fs from 'node:fs';
import path from 'node:path';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { disableAuth, makeProject } from '@basin/test';
import { startKafka } from '../test/support/kafka.js';
import { openProject } from './sync-common.js';

const total = Number(process.argv[2] ?? 1_000_000);
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const broker = await startKafka({ heap: '512m' });
console.log(`broker (KRaft, one node) started in ${broker.startMs} ms`);
const kafka = new Kafka({ clientId: 'bench', brokers: [broker.bootstrap], logLevel: logLevel.NOTHING });
try {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: 'bench', numPartitions: 4 }], waitForLeaders: true });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  let t0 = performance.now();
  for (let i = 0; i < total; i += 10_000) {
    const messages = [];
    for (let j = i; j < Math.min(total, i + 10_000); j++) {
      messages.push({ key: `k${j}`, value: JSON.stringify({ id: j + 1, customer: `customer_${(j * 7919) % 100_000}`, amount: ((j * 37) % 100_000) / 100, at: new Date(Date.UTC(2024, 0, 1) + j * 1000).toISOString() }) });
    }
    await producer.send({ topic: 'bench', messages });
  }
  await producer.disconnect();
  console.log(`produced ${total.toLocaleString()} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const marks = new Map((await admin.fetchTopicOffsets('bench')).map((m) => [m.partition, Number(m.high)]));
  await admin.disconnect();

  // bare: a consumer group reads every partition to its high-water mark
  t0 = performance.now();
  let n = 0;
  const consumer = kafka.consumer({ groupId: 'bench-bare', maxBytes: 10 * 1_048_576, maxBytesPerPartition: 1_048_576, maxWaitTimeInMs: 1_000 });
  await consumer.connect();
  await consumer.subscribe({ topics: ['bench'], fromBeginning: true });
  const left = new Set(marks.keys());
  await new Promise<void>((resolve, reject) => {
    consumer
      .run({
        autoCommit: false,
        eachBatch: async ({ batch }) => {
          n += batch.messages.length;
          if (Number(batch.lastOffset()) + 1 >= marks.get(batch.partition)!) left.delete(batch.partition);
          if (!left.size) resolve();
        },
      })
      .catch(reject);
  });
  const bare = performance.now() - t0;
  await consumer.disconnect();

  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: bench\n    type: kafka\n    generic_config:\n      bootstrap_servers: ["${broker.bootstrap}"]\n      topics: [bench]\n`,
  });
  disableAuth(dir);
  const p = await openProject(dir);
  t0 = performance.now();
  const r = await p.engine.run('bench');
  const basin = performance.now() - t0;
  await p.close();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  if (r.status !== 'succeeded') throw new Error(`sync ${r.status}: ${r.error}`);
  console.log(`kafka ${total.toLocaleString()} messages, 4 partitions (Apache Kafka 4.1 KRaft): bare kafkajs consumer ${rate(n, bare).toLocaleString()} records/s (${(bare / 1000).toFixed(1)} s); Basin sync ${rate(r.rows, basin).toLocaleString()} records/s (${(basin / 1000).toFixed(1)} s); Basin / bare = ${(bare / basin).toFixed(2)}`);
} finally {
  await broker.stop();
}
