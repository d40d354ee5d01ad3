// `basin warehouse up` without starting an engine: a backend with no local server says so, and the
// Trino one refuses a remote host or missing passwords before it starts anything (the coordinator it
// starts is the test support's, covered by plugins/warehouse-trino/test and the backend tests).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeProject, runCliCaptured } from '@basin/test';


function withWarehouse(section: string): string {
  const dir = makeProject({});
  const file = path.join(dir, '.basin', 'project.yml');
  fs.appendFileSync(file, `warehouse:\n${section}`);
  return dir;
}

test('warehouse up on the embedded DuckDB warehouse: nothing to start', async () => {
  const r = await runCliCaptured(['warehouse', 'up', '--project', makeProject({})]);
  assert.equal(r.code, 1);
  assert.match(r.all, /duckdb warehouse has no local server/);
});

test('warehouse up for Trino starts on this host only', async () => {
  const r = await runCliCaptured(['warehouse', 'up', '--project', withWarehouse('  type: trino\n  host: trino.example.com\n')]);
  assert.equal(r.code, 1);
  assert.match(r.all, /warehouse\.host is trino\.example\.com: basin warehouse up starts a coordinator on this host only/);
});

test('warehouse up for Trino names the password variable that is missing, and starts nothing', async () => {
  const saved = process.env.BASIN_TRINO_PASSWORD;
  delete process.env.BASIN_TRINO_PASSWORD;
  try {
    const dir = withWarehouse('  type: trino\n  host: 127.0.0.1\n');
    const r = await runCliCaptured(['warehouse', 'up', '--project', dir]);
    assert.equal(r.code, 1);
    assert.match(r.all, /set the environment variable BASIN_TRINO_PASSWORD/);
    assert.equal(fs.existsSync(path.join(dir, 'data', 'trino')), false);
  } finally {
    if (saved !== undefined) process.env.BASIN_TRINO_PASSWORD = saved;
  }
});
