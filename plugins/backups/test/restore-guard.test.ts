// basin restore refuses while a server runs for the project (it would swap files under a live process).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { makeProject } from '@basin/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

test('restore with a running server says to stop it first, and backup without object storage says what to add', () => {
  const dir = makeProject();
  fs.writeFileSync(path.join(dir, '.basin/server.json'), JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:1/', started_at: new Date().toISOString() }));
  const run = (args: string[]) => spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, BASIN_DEV: '1' } });
  const r = run(['restore', 'latest', '--project', dir]);
  assert.equal(r.status, 1);
  assert.match(r.stderr, /server is running for this project \(pid \d+\); stop it first/);
  fs.rmSync(path.join(dir, '.basin/server.json'));
  const b = run(['backup', '--project', dir]);
  assert.equal(b.status, 1);
  assert.match(b.stderr, /No object storage is configured: add object_store/);
});
