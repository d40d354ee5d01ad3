// `basin tx setup` and `basin tx run` through the real CLI entry point, with dbt's progress streamed.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createApp } from '@basin/core';
import { cli, txProject, writeRawOrders } from './fixtures/project.js';

test('basin tx setup is idempotent and reports the pinned versions', async () => {
  const dir = txProject();
  const r = await cli(['tx', 'setup', '--project', dir]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /already up to date/);
  assert.match(r.out, /dbt-core 1\.12\.\d+, dbt-duckdb 1\.11\.\d+, duckdb 1\.5\.6/);
});

test('basin tx run streams dbt progress and exits 1 when a model fails', async () => {
  const dir = txProject('  auto_tx: false\n', { 'tx/models/marts/broken.sql': 'select * from missing_table\n' });
  fs.appendFileSync(path.join(dir, '.basin/project.yml'), '\ntx:\n  docs_after_run: false\n');
  fs.mkdirSync(path.join(dir, 'tx/models/staging/shop'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'tx/models/staging/shop/stg_shop__orders.sql'), 'select * from raw_shop.orders\n');
  const app = await createApp({ projectDir: dir });
  await writeRawOrders(app);
  await app.close();

  const r = await cli(['tx', 'run', '--project', dir]);
  assert.equal(r.code, 1);
  assert.match(r.out, /Running with dbt=1\.12/);
  assert.match(r.out, /OK created sql view model main\.stg_shop__orders/);
  assert.match(r.out, /ERROR creating sql table model main\.broken/);
  assert.match(r.out, /Run tx_[0-9a-f]+: failed \(1 node\(s\) failed: broken\)/);
});
