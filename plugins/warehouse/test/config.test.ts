// The `warehouse` section of project.yml: checked against the chosen backend's manifest settings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, resolveWarehouseSettings } from '@basin/core';
import { tempDir } from '@basin/test';

const HEAD = `project:\n  name: demo\n  created: "2026-01-01T00:00:00Z"\n  created_by: me@example.com\n  purpose: testing\n`;

function issues(yml: string) {
  const dir = tempDir();
  fs.mkdirSync(path.join(dir, '.basin'));
  fs.writeFileSync(path.join(dir, '.basin/project.yml'), HEAD + yml);
  return loadConfig({ projectDir: dir, files: [], sections: [] }).issues.map((i) => ({ path: i.path, line: i.line, message: i.message }));
}

test('a postgres section: unknown keys and wrong types are reported at their line', () => {
  assert.deepEqual(issues('warehouse:\n  type: postgres\n  hots: db\n  port: "abc"\n'), [
    { path: '/warehouse/hots', line: 8, message: '"hots" is not a setting of the postgres warehouse' },
    { path: '/warehouse/port', line: 9, message: 'Expected integer' },
  ]);
  assert.deepEqual(issues('warehouse:\n  type: postgres\n  host: db.internal\n'), []);
});

test('an unknown type names the installed backends', () => {
  const [i, ...rest] = issues('warehouse:\n  type: oracle\n');
  assert.deepEqual(rest, []);
  assert.equal(i!.path, '/warehouse/type');
  assert.equal(i!.line, 7);
  // other installed backends (trino) may be listed too
  assert.match(i!.message, /^unknown warehouse type "oracle"; installed: duckdb, .*\bpostgres\b/);
});

test('the chosen backend\'s defaults fill the settings; secrets are env var names', () => {
  const s = resolveWarehouseSettings({ type: 'postgres', host: 'db.internal' });
  assert.deepEqual(s, {
    type: 'postgres',
    host: 'db.internal',
    port: 5432,
    database: 'basin',
    user: 'basin',
    password_env: 'BASIN_WAREHOUSE_PASSWORD',
    read_user: 'basin_reader',
    read_password_env: 'BASIN_WAREHOUSE_READ_PASSWORD',
    schema_prefix: '',
    ssl: false,
  });
  assert.deepEqual(resolveWarehouseSettings(undefined), { type: 'duckdb' });
});
