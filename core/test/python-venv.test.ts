// ManagedVenv's stamp (issue 22): a venv lists every pin it has, so a companion venv with a server
// warehouse's drivers added stays ready for the DuckDB pin set; a changed pin of a package replaces
// the old one. pip is a stand-in script here (it records its arguments); the real installs run in
// the setup steps and the companions' tests.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { ManagedVenv } from '../src/index.js';

function fakeVenv(): { dir: string; calls: () => string[] } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-venv-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  const log = path.join(dir, 'pip-calls');
  // "python -m pip install ..." succeeds and writes down what it was asked to install
  fs.writeFileSync(path.join(dir, 'bin', 'python'), `#!/bin/sh\necho "$@" >> '${log}'\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'bin', 'tool'), '#!/bin/sh\n', { mode: 0o755 });
  return { dir, calls: () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').trim().split('\n') : []) };
}

const spec = (requirements: string[]) => ({ tool: 'tool', requirements, executable: 'tool', projectFolder: '.venv-x', envVar: 'BASIN_X_VENV_DIR', cacheFolder: 'venv-x', setupCommand: 'basin x setup' });

test('drivers added to a venv keep it ready for the smaller pin set; a changed pin replaces the old one', async () => {
  const { dir, calls } = fakeVenv();
  const base = new ManagedVenv(spec(['tool==1.0', 'duckdb==1.5.6']), dir);
  const server = new ManagedVenv(spec(['tool==1.0', 'duckdb==1.5.6', 'psycopg2-binary==2.9.10']), dir);
  assert.equal(base.ready(dir), false);
  assert.deepEqual(await base.ensure(dir), { changed: true });
  assert.equal(base.ready(dir), true);
  assert.equal(server.ready(dir), false, 'the driver is not there yet');

  assert.deepEqual(await server.ensure(dir), { changed: true });
  assert.match(calls().at(-1)!, /-m pip install --quiet tool==1\.0 duckdb==1\.5\.6 psycopg2-binary==2\.9\.10$/);
  assert.equal(server.ready(dir), true);
  assert.equal(base.ready(dir), true, 'still ready for DuckDB: nothing to reinstall');
  assert.deepEqual(await base.ensure(dir), { changed: false });

  // the DuckDB pins move on (a new tool version): the venv is reinstalled with them, the driver stays listed
  const newer = new ManagedVenv(spec(['tool==1.1', 'duckdb==1.5.6']), dir);
  assert.equal(newer.ready(dir), false);
  await newer.ensure(dir);
  const stamp = fs.readFileSync(path.join(dir, '.basin-requirements'), 'utf8').trim().split('\n');
  assert.equal(stamp[0], newer.requirementsHash());
  assert.deepEqual(stamp.slice(1).sort(), ['duckdb==1.5.6', 'psycopg2-binary==2.9.10', 'tool==1.1']);
  assert.equal(server.ready(dir), false, 'tool==1.0 is gone');
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a stamp an older Basin wrote (the hash alone) is still ready for its own pin set', () => {
  const { dir } = fakeVenv();
  const base = new ManagedVenv(spec(['tool==1.0']), dir);
  fs.writeFileSync(path.join(dir, '.basin-requirements'), `${base.requirementsHash()}\n`);
  assert.equal(base.ready(dir), true);
  assert.equal(new ManagedVenv(spec(['tool==1.0', 'trino[sqlalchemy]==0.336.0']), dir).ready(dir), false);
  fs.rmSync(dir, { recursive: true, force: true });
});

test('a venv whose entry scripts name a Python that is gone (moved with its project) is not ready', async () => {
  const { dir } = fakeVenv();
  const venv = new ManagedVenv(spec(['tool==1.0']), dir);
  await venv.ensure(dir);
  assert.equal(venv.ready(dir), true);
  // what pip wrote when the venv lived at another path
  fs.writeFileSync(path.join(dir, 'bin', 'tool'), `#!${path.join(os.tmpdir(), 'basin-gone-venv', 'bin', 'python')}\nimport sys\n`, { mode: 0o755 });
  assert.equal(venv.ready(dir), false);
  fs.writeFileSync(path.join(dir, 'bin', 'tool'), `#!${path.join(dir, 'bin', 'python')}\nimport sys\n`, { mode: 0o755 });
  assert.equal(venv.ready(dir), true);
});
