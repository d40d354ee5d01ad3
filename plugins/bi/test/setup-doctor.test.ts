// `basin doctor` and `basin bi setup` follow the project's warehouse (issue 22): on PostgreSQL the
// Superset venv must also have psycopg2; a venv without it is named with the command that adds it. A
// project-local .venv-bi stands in for the venv (a real Python, the pins recorded in its stamp), so
// nothing is installed here; scripts/setup.d/85-bi-server-drivers.mjs installs the real one.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fakeCompanionVenv, makeProject, runCliCaptured } from '@basin/test';
import { BI_REQUIREMENTS } from '../src/index.js';


const PG_DRIVER = 'psycopg2-binary==2.9.10';

const fakeVenv = (dir: string, pins: readonly string[]) => fakeCompanionVenv(path.join(dir, '.venv-bi'), 'superset', pins);

const check = async (dir: string) => {
  const r = await runCliCaptured(['doctor', '--json', '--project', dir]);
  return JSON.parse(r.out).checks.find((c: { name: string }) => c.name.startsWith('superset virtualenv'));
};

test('doctor and bi setup name the PostgreSQL driver a server warehouse needs in the Superset venv', { timeout: 120_000 }, async () => {
  const dir = makeProject();
  fakeVenv(dir, BI_REQUIREMENTS);
  const duck = await check(dir);
  assert.equal(duck.name, 'superset virtualenv');
  assert.equal(duck.status, 'ok', JSON.stringify(duck));

  // the same project on PostgreSQL: the venv lacks the driver
  fs.appendFileSync(path.join(dir, '.basin/project.yml'), '\nwarehouse:\n  type: postgres\n  host: 127.0.0.1\n  port: 5432\n  database: analytics\n  user: basin\n  read_user: basin_reader\n');
  const missing = await check(dir);
  assert.equal(missing.name, 'superset virtualenv (postgres warehouse)');
  assert.equal(missing.status, 'warn');
  assert.match(missing.detail, new RegExp(`without the postgres driver ${PG_DRIVER.replace(/[.]/g, '\\.')}`));
  assert.match(missing.fix, /^Run "basin bi setup --project .+" to add it/);

  // with the driver added (what `basin bi setup` does), doctor is satisfied and setup has nothing to do
  fakeVenv(dir, [...BI_REQUIREMENTS, PG_DRIVER]);
  assert.equal((await check(dir)).status, 'ok');
  const setup = await runCliCaptured(['bi', 'setup', '--project', dir]);
  assert.equal(setup.code, 0, setup.out);
  assert.match(setup.out, new RegExp(`Superset virtualenv already up to date with the postgres driver ${PG_DRIVER.replace(/[.]/g, '\\.')} \\(project\\)`));
  // and it is still ready for a DuckDB project (the drivers are extra)
  fs.writeFileSync(path.join(dir, '.basin/project.yml'), fs.readFileSync(path.join(dir, '.basin/project.yml'), 'utf8').replace(/\nwarehouse:[\s\S]*$/, '\n'));
  assert.equal((await check(dir)).status, 'ok');
});
