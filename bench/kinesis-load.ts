// kinesis load speed (not a test): N JSON records in a 4-shard kinesalite stream (in memory, from
// npm), read bare through @aws-sdk/client-kinesis (GetRecords over every shard, nothing done with
// the rows) and synced by Basin into DuckDB, same process, same data. Prints records/s and the ratio.
// kinesalite itself is the bottleneck of both, so this measures Basin's overhead, not AWS.
//   node --conditions=development --import tsx bench/kinesis-load.ts [records=100000]
import fs from 'node:fs';
import path from 'node:path';
import { GetRecordsCommand, GetShardIteratorCommand } from '@aws-sdk/client-kinesis';
import { disableAuth, makeProject } from '@basin/test';
import { KEYS, startKinesalite } from '../sources/kinesis/test/kinesalite-fixture.js';
import { openProject } from './sync-common.js';

const total = Number(process.argv[2] ?? 100_000);
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const k = await startKinesalite();
try {
  await k.createStream('bench', 4);
  const rows = Array.from({ length: total }, (_, i) => ({ key: `k${i}`, data: JSON.stringify({ id: i + 1, customer: `customer_${(i * 7919) % 100_000}`, amount: ((i * 37) % 100_000) / 100, at: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString() }) }));
  await k.put('bench', rows);

  let t0 = performance.now();
  let n = 0;
  for (const id of await k.shardIds('bench')) {
    let it = (await k.client.send(new GetShardIteratorCommand({ StreamName: 'bench', ShardId: id, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
    while (it) {
      const r = await k.client.send(new GetRecordsCommand({ ShardIterator: it, Limit: 10_000 }));
      n += r.Records?.length ?? 0;
      if (!r.Records?.length) break;
      it = r.NextShardIterator;
    }
  }
  const bare = performance.now() - t0;

  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: bench\n    type: kinesis\n    generic_config:\n      endpoint: ${k.endpoint}\n      streams: [bench]\n`,
    '.env': `AWS_ACCESS_KEY_ID=${KEYS.AWS_ACCESS_KEY_ID}\nAWS_SECRET_ACCESS_KEY=${KEYS.AWS_SECRET_ACCESS_KEY}\n`,
  });
  disableAuth(dir);
  const p = await openProject(dir);
  t0 = performance.now();
  const r = await p.engine.run('bench');
  const basin = performance.now() - t0;
  await p.close();
  fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  if (r.status !== 'succeeded') throw new Error(`sync ${r.status}: ${r.error}`);
  console.log(`kinesis ${total.toLocaleString()} records, 4 shards (kinesalite): bare GetRecords ${rate(n, bare).toLocaleString()} records/s (${(bare / 1000).toFixed(1)} s); Basin sync ${rate(r.rows, basin).toLocaleString()} records/s (${(basin / 1000).toFixed(1)} s); Basin / bare = ${(bare / basin).toFixed(2)}`);
} finally {
  await k.stop();
}
