// `basin tx run` on a Trino project (issue 22): dbt runs from the dbt-trino venv with the profile Basin
// writes from the backend's dbt target, and builds its models in Trino. The coordinator is the test
// run's shared one (test/support/trino.ts); this file takes a schema prefix of its own.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { createApp } from '@basin/core';
import { makeProject, disableAuth } from '@basin/test';
import { clientFor } from '../../../test/support/warehouse-backends.js';
import { trinoUnderTest } from '../../../test/support/trino-warehouse.js';
import { cli } from './fixtures/project.js';

const unavailable = trinoUnderTest.unavailable();

test('basin tx run on a Trino warehouse uses the dbt-trino venv and builds the models in Trino', { skip: unavailable ?? false }, async (t) => {
  const dir = makeProject();
  disableAuth(dir);
  const running = await trinoUnderTest.start(dir);
  if ('missing' in running.dbtVenv) return t.skip(running.dbtVenv.missing);
  const prefix = String(running.section.schema_prefix);
  fs.appendFileSync(path.join(dir, '.basin/project.yml'), `\n${stringify({ warehouse: running.section, tx: { docs_after_run: false } })}`);
  // a Trino project starts without its passwords (the dbt target asks for them when dbt runs)
  for (const k of Object.keys(running.env)) assert.equal(process.env[k], undefined);
  const bare = await createApp({ projectDir: dir });
  assert.equal(bare.warehouseClient.capabilities.type, 'trino');
  await bare.close();
  // the passwords come from the project's .env, as an operator would keep them
  fs.writeFileSync(path.join(dir, '.env'), Object.entries(running.env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');

  const client = await clientFor(dir, running);
  try {
    const file = path.join(dir, 'orders.csv');
    fs.writeFileSync(file, 'id,status,amount\n' + Array.from({ length: 30 }, (_, i) => `${i + 1},${i % 3 ? 'paid' : 'refunded'},${i + 0.5}`).join('\n') + '\n');
    const columns = [
      { name: 'id', type: 'BIGINT', nullable: false },
      { name: 'status', type: 'VARCHAR', nullable: true },
      { name: 'amount', type: 'DOUBLE', nullable: true },
    ];
    await client.loadStaged({ schema: 'raw_shop', staging: '_basin_staging__orders__t1', file: { path: file, format: 'csv' }, columns });
    await client.swap({ source: 'shop', syncId: 't1', resources: [{ schema: 'raw_shop', table: 'orders', staging: '_basin_staging__orders__t1', disposition: 'replace' }] });

    fs.mkdirSync(path.join(dir, 'tx/models/marts'), { recursive: true });
    // the source names the engine's schema (this file's prefix; a project on its own cluster has none)
    fs.writeFileSync(path.join(dir, 'tx/models/marts/sources.yml'), stringify({ version: 2, sources: [{ name: 'shop', schema: `${prefix}raw_shop`, tables: [{ name: 'orders' }] }] }));
    fs.writeFileSync(path.join(dir, 'tx/models/marts/orders_by_status.sql'), "select status, count(*) as orders from {{ source('shop', 'orders') }} group by status\n");

    const r = await cli(['tx', 'run', 'orders_by_status', '--project', dir]);
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /Registered adapter: trino/);
    assert.match(r.out, /OK created sql table model .*orders_by_status/);
    const profiles = fs.readFileSync(path.join(dir, '.basin/tmp/dbt-profiles/profiles.yml'), 'utf8');
    assert.match(profiles, /type: trino/);
    assert.match(profiles, /env_var\('BASIN_TRINO_PASSWORD'\)/);
    for (const secret of Object.values(running.env)) assert.ok(!profiles.includes(secret) && !r.out.includes(secret), 'passwords stay in the environment');

    const res = await client.query(`SELECT status, orders FROM ${client.capabilities.qualify('main', 'orders_by_status')} ORDER BY status`, { timeoutMs: 30_000, maxRows: 10 });
    assert.deepEqual(res.rows.map((x) => [x[0], Number(x[1])]), [['paid', 20], ['refunded', 10]]);
  } finally {
    await client.close();
    await running.stop();
  }
});
