// mongodb load speed (not a test): a collection of nested documents (1M by default) in FerretDB v1
// (SQLite backend, scripts/setup.d/60-ferretdb.mjs), read bare through the official driver (every
// document decoded to JS in the driver's batches, nothing done with it) and synced by Basin into
// DuckDB (engine.run, committed: BSON conversion, flattening, staging, swap), same process, same data.
// Both read the collection in its natural order (a full load; incremental reads add a sort by the
// cursor field, which FerretDB's SQLite backend does in memory). Prints documents/s and Basin / bare.
//   node --conditions=development --import tsx bench/mongodb-load.ts [documents=1000000]
import fs from 'node:fs';
import path from 'node:path';
import { disableAuth, makeProject } from '@basin/test';
import { MongoClient } from 'mongodb';
import { startFerretdb } from '../test/support/ferretdb.js';
import { openProject } from './sync-common.js';

const docs = Number(process.argv[2] ?? 1_000_000);
const BATCH = 10_000;
const rate = (n: number, ms: number) => Math.round((n / ms) * 1000);
const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
const CATS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
const base = Date.UTC(2024, 0, 1);

function doc(n: number) {
  return {
    n,
    created_at: new Date(base + n * 1000),
    customer: { name: `customer_${(n * 7919) % 100_000}`, address: { city: `city_${n % 500}`, zip: String(10_000 + (n % 90_000)) } },
    category: CATS[n % 8],
    amount: ((n * 37) % 100_000) / 100,
    quantity: n % 17,
    tags: [CATS[n % 8], CATS[(n + 3) % 8]],
    comment: `note for document ${n} with some free text padding`,
  };
}

const server = await startFerretdb();
const client = new MongoClient(server.urlFor(server.username, server.password));
try {
  await client.connect();
  const col = client.db('shop').collection('orders');
  let t0 = performance.now();
  for (let i = 1; i <= docs; i += BATCH) {
    const batch = [];
    for (let n = i; n < Math.min(docs + 1, i + BATCH); n++) batch.push(doc(n));
    await col.insertMany(batch, { ordered: false });
    if ((i - 1) % 100_000 === 0) process.stderr.write(`inserted ${i - 1}\n`);
  }
  console.log(`setup: ${docs.toLocaleString()} documents inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  // bare: the driver's own batches, decoded, counted
  t0 = performance.now();
  let cpu0 = process.cpuUsage();
  let n = 0;
  const cursor = col.find({}, { batchSize: BATCH });
  while (await cursor.hasNext()) n += cursor.readBufferedDocuments().length;
  const bareMs = performance.now() - t0;
  const bareCpu = cpuSeconds(process.cpuUsage(cpu0));

  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: bench\n    type: mongodb\n    generic_config:\n      connection_url_env: MONGO_URL\n      collections: [orders]\n      batch_size: ${BATCH}\n`,
    '.env': `MONGO_URL=${server.urlFor(server.username, server.password, 'shop')}\n`,
  });
  disableAuth(dir);
  const p = await openProject(dir);
  try {
    t0 = performance.now();
    cpu0 = process.cpuUsage();
    const r = await p.engine.run('bench');
    if (r.status !== 'succeeded') throw new Error(`sync ${r.status}: ${r.error}`);
    const basinMs = performance.now() - t0;
    const basinCpu = cpuSeconds(process.cpuUsage(cpu0));
    console.log(
      `mongodb (FerretDB v1, SQLite) ${docs.toLocaleString()} documents: bare driver read ${rate(n, bareMs).toLocaleString()} docs/s (${(bareMs / 1000).toFixed(1)} s); Basin sync ${rate(r.rows, basinMs).toLocaleString()} docs/s (${(basinMs / 1000).toFixed(1)} s); Basin / bare = ${(bareMs / basinMs).toFixed(2)}`,
    );
    // the server is usually the bottleneck: this process's own CPU shows what Basin adds per document
    console.log(`client CPU: bare read ${bareCpu.toFixed(1)} s (${rate(n, bareCpu * 1000).toLocaleString()} docs per CPU-second); Basin sync ${basinCpu.toFixed(1)} s (${rate(r.rows, basinCpu * 1000).toLocaleString()} docs per CPU-second, DuckDB threads included)`);

  } finally {
    await p.close();
    fs.rmSync(path.dirname(dir), { recursive: true, force: true });
  }
} finally {
  await client.close();
  await server.stop();
}
