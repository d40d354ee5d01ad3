// Warehouse-level tests, run against every backend in test/support/warehouse-backends.ts (DuckDB
// always, PostgreSQL started once for this file): load, incremental, kill mid-load, drift, PII
// sampling, catalog, query guard, dbt with a staging model and a mart.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import type { WarehouseClient } from '@basin/core';
import { evaluate, ExpressionGuard, planMonitor, type Monitor } from '@basin/plugin-monitoring';
// bi and notebooks are resolved through the workspace, not declared in test/package.json: both have
// @basin/test as a dev dependency and turbo refuses the build cycle a declaration would make
import { supersetVenv, supersetVenvFor, WAREHOUSE_URI_PY } from '@basin/plugin-bi';
import { marimoVenvFor } from '@basin/plugin-notebooks';
import { companionWarehouseEnv } from '@basin/core';
import pg from 'pg';
import { sourcesYaml } from '@basin/plugin-transform';
import { tempDir } from '@basin/test';
import { clientFor, warehousesUnderTest, type RunningWarehouse } from './support/warehouse-backends.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RAW = 'raw_people';
const PEOPLE = [
  { name: 'id', type: 'BIGINT', nullable: false },
  { name: 'name', type: 'VARCHAR', nullable: true },
  { name: 'email', type: 'VARCHAR', nullable: true },
  { name: 'country', type: 'VARCHAR', nullable: true },
];
const LIMITS = { timeoutMs: 10_000, maxRows: 1000 };

function csv(dir: string, name: string, header: string, rows: string[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, [header, ...rows].join('\n') + '\n');
  return file;
}
const person = (i: number, country = i % 2 ? 'DE' : 'FR') => `${i},Person ${i},person${i}@example.com,${country}`;

async function scalar(client: WarehouseClient, sql: string): Promise<unknown> {
  await client.publish();
  return (await client.query(sql, LIMITS)).rows[0]?.[0];
}

for (const backend of warehousesUnderTest) {
  const why = backend.unavailable();
  describe(`warehouse backend: ${backend.type}`, { skip: why ?? false }, () => {
    let dir: string;
    let running: RunningWarehouse;
    let client: WarehouseClient;
    const q = (t: string) => client.capabilities.qualify(RAW, t);

    before(async () => {
      dir = tempDir();
      running = await backend.start(dir);
      client = await clientFor(dir, running);
    });
    after(async () => {
      await client?.close();
      await running?.stop();
    });

    test('capabilities and health name the backend', async () => {
      assert.equal(client.capabilities.type, backend.type);
      assert.ok(client.capabilities.bulkFormats.includes('csv'));
      const h = await client.health();
      assert.equal(h.ok, true, h.message);
      assert.equal(h.type, backend.type);
      assert.doesNotMatch(JSON.stringify(h), /secret/);
    });

    test('load: a staged CSV swaps in with its cursor state, typed as declared', async () => {
      const file = csv(dir, 'p1.csv', 'id,name,email,country', Array.from({ length: 100 }, (_, i) => person(i + 1)));
      const staged = await client.loadStaged({ schema: RAW, staging: '_basin_staging__people__s1', file: { path: file, format: 'csv' }, columns: PEOPLE });
      assert.equal(staged.rows, 100);
      // staged, not swapped: readers see nothing yet
      assert.equal(await client.describeTable(RAW, 'people'), null);
      const swapped = await client.swap({ source: 'crm', syncId: 's1', resources: [{ schema: RAW, table: 'people', staging: '_basin_staging__people__s1', disposition: 'replace' }], cursor: { updated_at: '2026-01-01' } });
      assert.deepEqual(swapped, [{ schema: RAW, table: 'people', rows: 100 }]);
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')}`)), 100);
      assert.deepEqual(await client.cursorState('crm'), { updated_at: '2026-01-01' });
      assert.deepEqual([...(await client.committedSyncs(['s1', 'nope']))], ['s1']);
      const cols = (await client.describeTable(RAW, 'people'))!;
      assert.deepEqual(cols.map((c) => c.name), ['id', 'name', 'email', 'country']);
      assert.match(cols[0]!.type, /^(BIGINT|bigint)$/);
    });

    test('incremental: append adds rows, merge replaces rows by key, cursor advances with them', async () => {
      const more = csv(dir, 'p2.csv', 'id,name,email,country', [person(101), person(102)]);
      await client.loadStaged({ schema: RAW, staging: '_basin_staging__people__s2', file: { path: more, format: 'csv' }, columns: PEOPLE });
      await client.swap({ source: 'crm', syncId: 's2', resources: [{ schema: RAW, table: 'people', staging: '_basin_staging__people__s2', disposition: 'append' }], cursor: { updated_at: '2026-01-02' } });
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')}`)), 102);
      const upd = csv(dir, 'p3.csv', 'id,name,email,country', [`1,Renamed,person1@example.com,IT`, person(103)]);
      await client.loadStaged({ schema: RAW, staging: '_basin_staging__people__s3', file: { path: upd, format: 'csv' }, columns: PEOPLE });
      const [t] = await client.swap({ source: 'crm', syncId: 's3', resources: [{ schema: RAW, table: 'people', staging: '_basin_staging__people__s3', disposition: 'merge', primaryKey: ['id'] }], cursor: { updated_at: '2026-01-03' } });
      assert.equal(t!.rows, 103);
      assert.equal(await scalar(client, `SELECT name FROM ${q('people')} WHERE id = 1`), 'Renamed');
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')} WHERE id = 1`)), 1);
      assert.deepEqual(await client.cursorState('crm'), { updated_at: '2026-01-03' });
    });

    test('a failing swap changes nothing: tables, marker and cursor stay', async () => {
      const bad = csv(dir, 'p4.csv', 'id,name,email,country', [person(200)]);
      await client.loadStaged({ schema: RAW, staging: '_basin_staging__people__s4', file: { path: bad, format: 'csv' }, columns: PEOPLE });
      await assert.rejects(
        client.swap({
          source: 'crm',
          syncId: 's4',
          resources: [
            { schema: RAW, table: 'people', staging: '_basin_staging__people__s4', disposition: 'append' },
            { schema: RAW, table: 'ghost', staging: '_basin_staging__ghost__s4', disposition: 'append' },
          ],
          cursor: { updated_at: '2026-09-09' },
        }),
      );
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')}`)), 103);
      assert.deepEqual(await client.cursorState('crm'), { updated_at: '2026-01-03' });
      assert.equal((await client.committedSyncs(['s4'])).size, 0);
      assert.equal(await client.dropStaleStaging(), 1);
    });

    test('a swap failing midway undoes the forget deletes and the merge of the resources before it', async () => {
      const upd = csv(dir, 'p4b.csv', 'id,name,email,country', [`2,Changed,person2@example.com,ES`, person(201)]);
      await client.loadStaged({ schema: RAW, staging: '_basin_staging__people__s4b', file: { path: upd, format: 'csv' }, columns: PEOPLE });
      await client.loadStaged({ schema: RAW, staging: '_basin_staging__people__s4c', file: { path: upd, format: 'csv' }, columns: PEOPLE });
      const before = Number(await scalar(client, `SELECT count(*) FROM ${q('people')} WHERE country = 'FR'`));
      await assert.rejects(
        client.swap({
          source: 'crm',
          syncId: 's4b',
          resources: [
            // what an incremental sync sends: delete the rows of a forgotten file (here: country FR), merge the rest by key
            { schema: RAW, table: 'people', staging: '_basin_staging__people__s4b', disposition: 'merge', primaryKey: ['id'], forget: { column: 'country', values: ['FR'] } },
            // then a resource that fails once the first one changed the table (a key column that does not exist)
            { schema: RAW, table: 'people', staging: '_basin_staging__people__s4c', disposition: 'merge', primaryKey: ['no_such_key'] },
          ],
          cursor: { updated_at: '2026-09-10' },
        }),
      );
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')}`)), 103);
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')} WHERE country = 'FR'`)), before);
      assert.equal(await scalar(client, `SELECT name FROM ${q('people')} WHERE id = 2`), 'Person 2');
      assert.deepEqual(await client.cursorState('crm'), { updated_at: '2026-01-03' });
      assert.equal((await client.committedSyncs(['s4b'])).size, 0);
      assert.equal(await client.dropStaleStaging(), 2);
    });

    test('replace swap on PostgreSQL keeps the views that read the table (dbt staging views), and drops only those that no longer fit', { skip: backend.type !== 'postgres' && 'PostgreSQL binds views to the table (DuckDB and Trino resolve them by name)' }, async () => {
      const s = running.section;
      const db = new pg.Client({ host: String(s.host), port: Number(s.port), user: String(s.user), database: String(s.database), password: running.env.BASIN_WAREHOUSE_PASSWORD });
      await db.connect();
      const load = async (id: string, header: string, rows: string[], columns = PEOPLE) => {
        const file = csv(dir, `viewed-${id}.csv`, header, rows);
        await client.loadStaged({ schema: RAW, staging: `_basin_staging__viewed__${id}`, file: { path: file, format: 'csv' }, columns });
        return client.swap({ source: 'viewed', syncId: id, resources: [{ schema: RAW, table: 'viewed', staging: `_basin_staging__viewed__${id}`, disposition: 'replace' }] });
      };
      try {
        await load('v1', 'id,name,email,country', [person(1), person(2)]);
        // a view on the table and a view on that view, as dbt's staging and a downstream view are
        await db.query(`CREATE VIEW ${q('viewed_names')} AS SELECT id, name FROM ${q('viewed')}`);
        await db.query(`CREATE VIEW ${q('viewed_count')} AS SELECT count(*) AS n FROM ${q('viewed_names')}`);
        const again = await load('v2', 'id,name,email,country', [person(1), person(2), person(3)]);
        assert.deepEqual(again, [{ schema: RAW, table: 'viewed', rows: 3 }]);
        assert.equal(Number((await db.query(`SELECT n FROM ${q('viewed_count')}`)).rows[0].n), 3, 'both views read the new table');
        // the read-only user still reads the views made again (default privileges of the writer)
        assert.equal(Number(await scalar(client, `SELECT n FROM ${q('viewed_count')}`)), 3);
        // the next full refresh lost the column the views read: they go, the swap commits, and says so
        const narrow = [PEOPLE[0]!, PEOPLE[2]!];
        const changed = await load('v3', 'id,email', ['1,a@example.com'], narrow);
        assert.equal(changed[0]!.rows, 1);
        assert.deepEqual(changed[0]!.viewsDropped, [`${s.schema_prefix}${RAW}.viewed_names`, `${s.schema_prefix}${RAW}.viewed_count`]);
        assert.equal((await db.query(`SELECT to_regclass($1) AS v`, [`${s.schema_prefix}${RAW}.viewed_names`])).rows[0].v, null);
        assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('viewed')}`)), 1);
      } finally {
        await db.end();
      }
    });

    test('kill mid-load: a process killed after staging leaves the table, marker and cursor as they were', async () => {
      const big = csv(dir, 'p5.csv', 'id,name,email,country', Array.from({ length: 5000 }, (_, i) => person(1000 + i)));
      // DuckDB: one process holds the file; the killed process takes it over meanwhile
      const embedded = client.capabilities.type === 'duckdb';
      if (embedded) await client.close();
      const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'fixtures', 'warehouse-stage-child.ts'), JSON.stringify({ projectDir: dir, section: running.section, env: running.env, csv: big, schema: RAW, staging: '_basin_staging__people__s5' })], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (b) => (err += b));
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (b: Buffer) => b.toString().includes('staged') && resolve());
        child.on('exit', (code) => reject(new Error(`child exited ${code} before staging: ${err}`)));
      });
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
      if (embedded) client = await clientFor(dir, running);
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')}`)), 103);
      assert.deepEqual(await client.cursorState('crm'), { updated_at: '2026-01-03' });
      assert.equal((await client.committedSyncs(['s5'])).size, 0);
      assert.equal(await client.dropStaleStaging(), 1, 'the killed load left its staging table; start-up drops it');
      assert.ok(!(await client.listTables(RAW)).some((t) => t.name.includes('staging')));
    });

    test('drift: an appended batch with a new column widens the table; old rows read NULL', async () => {
      const file = csv(dir, 'p6.csv', 'id,name,email,country,phone', [`300,Neu,neu@example.com,AT,+43 1 234`]);
      await client.loadStaged({ schema: RAW, staging: '_basin_staging__people__s6', file: { path: file, format: 'csv' }, columns: [...PEOPLE, { name: 'phone', type: 'VARCHAR', nullable: true }] });
      await client.swap({ source: 'crm', syncId: 's6', resources: [{ schema: RAW, table: 'people', staging: '_basin_staging__people__s6', disposition: 'append' }] });
      const cols = (await client.describeTable(RAW, 'people'))!.map((c) => c.name);
      assert.deepEqual(cols, ['id', 'name', 'email', 'country', 'phone']);
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')} WHERE phone IS NULL`)), 103);
      assert.equal(await scalar(client, `SELECT phone FROM ${q('people')} WHERE id = 300`), '+43 1 234');
    });

    test('PII sampling: a capped sample and an approximate distinct count in the dialect', async () => {
      await client.publish();
      const sample = await client.query(`SELECT email FROM ${q('people')} ORDER BY id`, { timeoutMs: 10_000, maxRows: 25 });
      assert.equal(sample.rows.length, 25);
      assert.equal(sample.truncated, true);
      assert.ok(sample.rows.every((r) => /@example\.com$/.test(String(r[0]))));
      const cap = client.capabilities;
      const sampled = await client.query(`SELECT CAST(${cap.quoteIdent('email')} AS VARCHAR) FROM ${cap.sample(q('people'), 10)}`, { timeoutMs: 10_000, maxRows: 10, internal: true });
      assert.equal(sampled.rows.length, 10);
      assert.ok(sampled.rows.every((r) => /@example\.com$/.test(String(r[0]))));
      const distinct = Number((await client.query(`SELECT ${client.capabilities.approxDistinct(client.capabilities.quoteIdent('country'))} FROM ${q('people')}`, LIMITS)).rows[0]![0]);
      assert.ok(distinct >= 3 && distinct <= 5, `about 4 countries, got ${distinct}`);
    });

    test('catalog: tables and columns, without Basin bookkeeping or staging', async () => {
      const tables = await client.listTables();
      assert.ok(tables.some((t) => t.schema === RAW && t.name === 'people' && t.kind === 'table'));
      assert.ok(!tables.some((t) => t.schema === '_basin_meta'));
      assert.equal(await client.describeTable(RAW, 'nope'), null);
      assert.deepEqual(await client.listTables('no_such_schema'), []);
    });

    test('monitors: metric monitors plan and evaluate through the interface, in the dialect', async () => {
      // 10 days of orders: EU and US 4 paid orders of 10.5 a day; on the last day the EU has 2, and a refund
      const rows: string[] = [];
      let id = 0;
      for (let day = 1; day <= 10; day++) {
        for (const region of ['EU', 'US']) {
          const n = day === 10 && region === 'EU' ? 2 : 4;
          for (let i = 0; i < n; i++) rows.push(`${++id},2026-03-${String(day).padStart(2, '0')} 13:0${i}:00,${region},10.5,paid`);
        }
      }
      rows.push(`${++id},2026-03-10 09:00:00,US,999,refunded`);
      const file = csv(dir, 'orders.csv', 'id,ordered_at,region,amount,status', rows);
      const columns = [
        { name: 'id', type: 'BIGINT', nullable: false },
        { name: 'ordered_at', type: 'TIMESTAMP', nullable: true },
        { name: 'region', type: 'VARCHAR', nullable: true },
        { name: 'amount', type: 'DOUBLE', nullable: true },
        { name: 'status', type: 'VARCHAR', nullable: true },
      ];
      await client.loadStaged({ schema: 'raw_shop', staging: '_basin_staging__orders__m1', file: { path: file, format: 'csv' }, columns });
      await client.swap({ source: 'shop', syncId: 'm1', resources: [{ schema: 'raw_shop', table: 'orders', staging: '_basin_staging__orders__m1', disposition: 'replace' }] });
      const monitor = (name: string, value: string, extra: Partial<Monitor> = {}): Monitor => ({ name, source_table: 'raw_shop.orders', value_expression: value, filter: "status = 'paid'", compare: 'prior_period', alert_threshold: 10, drill_down: ['region'], ...extra });
      const guard = new ExpressionGuard();
      try {
        // count(*): DuckDB re-prints it as count_star(), which only DuckDB knows; a server gets it as written
        const count = await evaluate(await planMonitor(monitor('orders', 'count(*)'), client, guard), client, '2026-03-11');
        assert.equal(count.period, '2026-03-10');
        assert.equal(count.value, 6);
        assert.equal(count.baseline, 8);
        assert.equal(count.change_pct, -25);
        assert.equal(count.crossed, true);
        assert.deepEqual(count.segments[0], { dimension: 'region', segment: 'EU', value: 2, baseline: 4, change_pct: -50, delta: -2 });
        const revenue = await evaluate(await planMonitor(monitor('revenue', 'sum(amount) -- paid only', { compare: 'rolling_7day_avg' }), client, guard), client, '2026-03-11');
        assert.equal(revenue.value, 63);
        assert.equal(revenue.baseline, 84);
        // the clock's day is excluded: with today = the last day, the period is the day before
        assert.equal((await evaluate(await planMonitor(monitor('orders', 'count(*)'), client, guard), client, '2026-03-10')).value, 8);
        await assert.rejects(planMonitor(monitor('bad', 'sum(nope) FROM x'), client, guard), /value_expression/);
        await assert.rejects(planMonitor(monitor('gone', 'count(*)', { source_table: 'raw_shop.nope' }), client, guard), /does not exist/);
      } finally {
        guard.close();
      }
    });

    test('companions: Superset and marimo get the serving copy (DuckDB) or the read-only user of the server', async () => {
      const conn = client.readOnlyConnection();
      const env = companionWarehouseEnv(conn, '/srv/serving.db');
      if (client.capabilities.servingCopy) {
        assert.equal(conn, null);
        assert.deepEqual(env, { BASIN_SERVING_DB: '/srv/serving.db' });
        assert.equal(supersetVenvFor(undefined), supersetVenv, 'DuckDB keeps its Superset venv and pins');
      } else {
        const c = conn!;
        const readUser = String(running.section.read_user);
        const password = running.env[c.passwordEnv];
        assert.ok(password, `the read-only password is named by ${c.passwordEnv}`);
        assert.equal(c.password, password);
        assert.doesNotMatch(c.sqlalchemyUrl, new RegExp(password!), 'the URL carries no password');
        assert.equal(env.BASIN_WAREHOUSE_READ_PASSWORD, password);
        if (backend.type === 'postgres') {
          assert.equal(c.sqlalchemyUrl, `postgresql+psycopg2://${readUser}@${running.section.host}:${running.section.port}/basin`);
          assert.deepEqual(c.drivers, ['psycopg2-binary==2.9.10']);
          // what the URL names logs in, reads, and cannot write (the role is read-only)
          const u = new URL(c.sqlalchemyUrl.replace(/^[^:]+:/, 'postgres:'));
          const db = new pg.Client({ host: u.hostname, port: Number(u.port), user: decodeURIComponent(u.username), database: u.pathname.slice(1), password: c.password });
          await db.connect();
          try {
            assert.equal(Number((await db.query(`SELECT count(*) AS n FROM ${q('people')}`)).rows[0].n), 104);
            await assert.rejects(db.query(`DELETE FROM ${q('people')}`), /read-only/);
          } finally {
            await db.end();
          }
        } else {
          assert.equal(c.sqlalchemyUrl, `trino://${readUser}@${running.section.host}:${running.section.port}/${running.section.catalog}`);
          assert.deepEqual(c.connectArgs, { http_scheme: 'https', verify: running.section.ca_file });
          assert.deepEqual(c.drivers, ['trino[sqlalchemy]==0.336.0']);
        }
        assert.equal(c.schemaName(RAW), `${String(running.section.schema_prefix ?? '')}${RAW}`);
        // the companions' own venvs with the driver added (same folders; docs/decisions.md, issue 22)
        assert.ok(supersetVenvFor(c.drivers).spec.requirements.includes(c.drivers[0]!));
        assert.equal(supersetVenvFor(c.drivers).spec.cacheFolder, supersetVenv.spec.cacheFolder);
        assert.ok(marimoVenvFor(c.drivers).spec.requirements.includes('sqlalchemy==2.0.44'));
      }
      // the URL Superset's provisioning script registers, rendered by SQLAlchemy (the Superset venv's; no driver needed)
      const venv = supersetVenv.locate(undefined).dir;
      if (!supersetVenv.ready(venv)) return;
      const r = spawnSync(supersetVenv.python(venv), ['-c', `import json, os\n${WAREHOUSE_URI_PY}\nprint(json.dumps(warehouse_uri(os.environ)))`], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      const [uri, args] = JSON.parse(r.stdout) as [string, Record<string, unknown>];
      if (!conn) {
        assert.equal(uri, 'duckdb:////srv/serving.db');
        assert.deepEqual(args, { read_only: true });
      } else {
        assert.equal(uri, conn.sqlalchemyUrl.replace('@', `:${encodeURIComponent(conn.password!)}@`));
        assert.deepEqual(args, conn.connectArgs);
      }
    });

    test('query guard: the read-only user cannot write; one statement; timeout; caps', async () => {
      await client.publish();
      for (const sql of [`DELETE FROM ${q('people')}`, `CREATE TABLE ${q('evil')} (x int)`, `INSERT INTO ${q('people')} (id) VALUES (9)`, `DROP TABLE ${q('people')}`]) {
        await assert.rejects(client.query(sql, LIMITS), (e: Error) => /read.only|permission|cannot|not allowed|denied/i.test(e.message), sql);
      }
      await assert.rejects(client.query(`SELECT 1; DELETE FROM ${q('people')}`, LIMITS));
      assert.equal(Number(await scalar(client, `SELECT count(*) FROM ${q('people')}`)), 104);
      const slow =
        { postgres: 'SELECT pg_sleep(5)', trino: 'SELECT count(*) FROM UNNEST(sequence(1, 10000)) a(x) CROSS JOIN UNNEST(sequence(1, 10000)) b(y) CROSS JOIN UNNEST(sequence(1, 10000)) c(z)' }[client.capabilities.type] ??
        'SELECT count(*) FROM range(100000000) a, range(1000) b';
      await assert.rejects(client.query(slow, { timeoutMs: 300, maxRows: 10 }), /cancelled|interrupt/i);
    });

    test('dbt: a staging model and a mart run through the backend\'s dbt target', async (t) => {
      const venv = running.dbtVenv;
      if ('missing' in venv) return t.skip(venv.missing);
      const target = client.dbtTarget();
      // dbt sees the engine's schema names: Basin's with the backend's schema_prefix (Trino's tests share one coordinator)
      const prefix = String(running.section.schema_prefix ?? '');
      const tx = path.join(dir, 'tx');
      fs.mkdirSync(path.join(tx, 'models', 'staging'), { recursive: true });
      fs.mkdirSync(path.join(tx, 'models', 'marts'), { recursive: true });
      fs.writeFileSync(path.join(tx, 'dbt_project.yml'), stringify({ name: 'wh', version: '1.0.0', profile: 'basin', 'config-version': 2, models: { wh: { staging: { '+materialized': 'view' }, marts: { '+materialized': 'table' } } } }));
      fs.writeFileSync(path.join(tx, 'profiles.yml'), stringify({ basin: { target: 'dev', outputs: { dev: target.profile } } }));
      // the sources file Basin generates for source `people` (raw schema raw_people): it names the raw
      // schema through the target's BASIN_SCHEMA_PREFIX, so it finds the prefixed schema on the engine
      assert.equal(target.env.BASIN_SCHEMA_PREFIX ?? '', prefix);
      fs.writeFileSync(path.join(tx, 'models', 'staging', 'sources.yml'), sourcesYaml('people', ['people']));
      fs.writeFileSync(path.join(tx, 'models', 'staging', 'stg_crm__people.sql'), "select id, lower(email) as email, country from {{ source('people', 'people') }}\n");
      fs.writeFileSync(path.join(tx, 'models', 'marts', 'people_by_country.sql'), "select country, count(*) as people from {{ ref('stg_crm__people') }} group by country\n");
      assert.doesNotMatch(fs.readFileSync(path.join(tx, 'profiles.yml'), 'utf8'), /writer-secret/, 'secrets stay in the environment');
      const r = await client.exclusive(async () =>
        spawnSync(path.join(venv.dir, 'bin', 'dbt'), ['run', '--project-dir', tx, '--profiles-dir', tx], {
          cwd: tx,
          encoding: 'utf8',
          env: { ...process.env, ...target.env, DBT_SEND_ANONYMOUS_USAGE_STATS: 'false', DBT_NO_VERSION_CHECK: '1' },
          timeout: 240_000,
        }),
      );
      assert.equal(r.status, 0, r.stdout + r.stderr);
      // the profile names the engine's schema; qualify and listTables take Basin's (schema_prefix removed)
      const schema = String(target.profile.schema ?? 'main').slice(prefix.length);
      const res = await (async () => {
        await client.publish();
        return client.query(`SELECT country, people FROM ${client.capabilities.qualify(schema, 'people_by_country')} ORDER BY country`, LIMITS);
      })();
      assert.deepEqual(res.rows.map((x) => [x[0], Number(x[1])]), [['AT', 1], ['DE', 51], ['FR', 51], ['IT', 1]]);
      assert.ok((await client.listTables(schema)).some((x) => x.name === 'stg_crm__people' && x.kind === 'view'));
    });
  });
}
