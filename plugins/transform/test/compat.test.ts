// The dbt venv's Python duckdb and the server's @duckdb/node-api must read each other's files
// (a newer Python duckdb could write a storage format the server cannot open).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { tempDir } from '@basin/test';
import { ensureVenv, locateVenv, pythonExecutable } from '../src/venv.js';

const python = async () => {
  const { dir } = locateVenv();
  await ensureVenv(dir);
  return pythonExecutable(dir);
};
const py = (exe: string, code: string, ...args: string[]) => {
  const r = spawnSync(exe, ['-c', code, ...args], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim();
};

test('python duckdb in the dbt venv is the same engine version as the Node binding', async () => {
  const exe = await python();
  const inst = await DuckDBInstance.create(':memory:');
  const c = await inst.connect();
  const nodeVersion = (await c.runAndReadAll('SELECT version() AS v')).getRowObjectsJson()[0]!.v;
  c.closeSync();
  inst.closeSync();
  assert.equal(py(exe, 'import duckdb; print(duckdb.sql("select version()").fetchone()[0])'), nodeVersion);
});

test('a file written by Python duckdb opens in Node, and the other way round', async () => {
  const exe = await python();
  const dir = tempDir();
  const fromPy = path.join(dir, 'py.db');
  py(exe, "import duckdb, sys\ncon = duckdb.connect(sys.argv[1])\ncon.execute(\"create table t as select range as i, 'x' || range as s from range(1000)\")\ncon.close()", fromPy);
  const inst = await DuckDBInstance.create(fromPy);
  const c = await inst.connect();
  assert.deepEqual((await c.runAndReadAll('SELECT count(*)::INTEGER AS n, max(s) AS m FROM t')).getRowObjectsJson(), [{ n: 1000, m: 'x999' }]);
  c.closeSync();
  inst.closeSync();

  const fromNode = path.join(dir, 'node.db');
  const w = await DuckDBInstance.create(fromNode);
  const wc = await w.connect();
  await wc.run("CREATE TABLE t AS SELECT range AS i, [range, range + 1] AS arr, {'k': range} AS st FROM range(500)");
  await wc.run('CHECKPOINT');
  wc.closeSync();
  w.closeSync();
  assert.equal(py(exe, "import duckdb, sys\ncon = duckdb.connect(sys.argv[1], read_only=True)\nprint(con.execute('select count(*), sum(arr[2]), max(st.k) from t').fetchone())", fromNode), '(500, 125250, 499)');
});
