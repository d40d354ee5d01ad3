// Dashboards on a server warehouse (issue 22), with the real Superset behind Basin's proxy, started
// once per backend: PostgreSQL (the test run's shared server; a dbt mart built there by dbt-postgres)
// and Trino (the run's shared coordinator; the synced table itself, as dbt-trino's venv is a separate
// install). Superset gets the backend's driver in its own venv, registers the warehouse as the
// read-only user, provisions the project's dashboard (its schema mapped through schema_prefix), and
// the chart's query returns the table's rows; SQL Lab reads and cannot write.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { stringify } from 'yaml';
import type { BasinApp } from '@basin/core';
import type { AuthService } from '@basin/plugin-auth';
import { bootApp, makeProject } from '@basin/test';
import { postgresBinDir } from '../../../test/support/postgres.js';
import { sharedPostgres } from '../../../test/support/shared-postgres.js';
import { trinoUnderTest } from '../../../test/support/trino-warehouse.js';
import { clientFor, postgresUnderTest } from '../../../test/support/warehouse-backends.js';
import type { SupersetSupervisor } from '../src/index.js';
import { supersetCaller } from './superset-call.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

const ORDERS = ['id,status,amount', '1,paid,10.5', '2,open,3', '3,paid,7', '4,refunded,2', '5,paid,1'].join('\n') + '\n';
const PASSWORDS = { BASIN_WAREHOUSE_PASSWORD: 'writer-secret', BASIN_WAREHOUSE_READ_PASSWORD: 'reader-secret' };

interface Backend {
  type: 'postgres' | 'trino';
  /** Superset's name of the engine and the scheme of its SQLAlchemy URL */
  supersetBackend: string;
  scheme: string;
  unavailable: () => string | null;
  start: (dir: string) => Promise<{ section: Record<string, unknown>; env: Record<string, string> }>;
  /** the dashboard's dataset (Basin's schema.table) and its columns; a dbt mart where dbt runs */
  dataset: { schema: string; table: string; columns: string[]; numeric: string[]; orderBy: string; mart: boolean };
}

const backends: Backend[] = [
  {
    type: 'postgres',
    supersetBackend: 'postgresql',
    scheme: 'postgresql\\+psycopg2',
    unavailable: () => (postgresBinDir() ? null : postgresUnderTest.unavailable()),
    async start() {
      const pg = await sharedPostgres();
      const suffix = crypto.randomBytes(4).toString('hex');
      const user = `bi_${suffix}_w`;
      pg.psql(`CREATE ROLE "${user}" LOGIN PASSWORD 'writer-secret' CREATEROLE; CREATE DATABASE "bi_${suffix}" OWNER "${user}";`);
      return { section: { type: 'postgres', host: pg.host, port: pg.port, database: `bi_${suffix}`, user, read_user: `${user}_r` }, env: PASSWORDS };
    },
    dataset: { schema: 'main', table: 'orders_by_status', columns: ['status', 'orders', 'revenue'], numeric: ['orders', 'revenue'], orderBy: 'status', mart: true },
  },
  {
    type: 'trino',
    supersetBackend: 'trino',
    scheme: 'trino',
    unavailable: () => trinoUnderTest.unavailable(),
    start: (dir) => trinoUnderTest.start(dir),
    dataset: { schema: 'raw_shop', table: 'shop', columns: ['id', 'status', 'amount'], numeric: ['id', 'amount'], orderBy: 'id', mart: false },
  },
];

for (const backend of backends) {
  describe(`Superset on a ${backend.type} warehouse`, { skip: backend.unavailable() ?? false }, () => {
    let app: BasinApp;
    let url: string;
    let dir: string;
    let running: { section: Record<string, unknown>; env: Record<string, string> };
    let engineSchema: string;
    const keys: Record<string, string> = {};
    const ds = backend.dataset;

    const call = supersetCaller(() => url, keys);

    before(async () => {
      dir = makeProject({
        '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n',
        'data/shop/orders.csv': ORDERS,
        'dashboards/orders.yml': stringify({
          title: 'Orders',
          slug: 'orders',
          charts: [{ name: 'Orders', dataset: `${ds.schema}.${ds.table}`, params: { viz_type: 'table', query_mode: 'raw', all_columns: ds.columns } }],
        }),
      });
      running = await backend.start(dir);
      engineSchema = `${String(running.section.schema_prefix ?? '')}${ds.schema}`;
      // the passwords live in the project's .env, as an operator keeps them
      fs.writeFileSync(path.join(dir, '.env'), Object.entries(running.env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
      const f = path.join(dir, '.basin/project.yml');
      fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('  port: 8800\n', `  port: 8800\n  bi_port: ${await freePort()}\n  auto_tx: false\n`) + `\ntx:\n  docs_after_run: false\n${stringify({ warehouse: running.section })}`);
      // what an operator's `basin warehouse migrate` does once: PostgreSQL's read-only role with its password
      await (await clientFor(dir, running)).close();
      app = await bootApp(dir);
      url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
      const auth = app.container.resolve<AuthService>('auth');
      for (const [who, role] of [['root', 'admin'], ['vic', 'viewer']] as const) {
        const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, `${who}@example.com`, role, 'dashboard test password');
        keys[who] = auth.keys.create(u.id, 'test', null).key;
      }
      const sync = await call('root', 'POST', '/api/sources/shop/sync', {});
      assert.equal(sync.status, 202, sync.text);
      let status = '';
      for (let i = 0; i < 1200 && status !== 'succeeded' && status !== 'failed'; i++) {
        await sleep(100);
        status = (await call('root', 'GET', `/api/sync/status/${sync.body.id ?? sync.body.sync_id}`)).body.status;
      }
      assert.equal(status, 'succeeded');
      if (!ds.mart) return;
      // the staging model is generated just after the sync (its sync_completed listener); the mart builds on it
      const staging = path.join(dir, 'tx/models/staging/shop');
      let stg = '';
      for (let i = 0; i < 600 && !stg; i++) {
        stg = (fs.existsSync(staging) ? fs.readdirSync(staging) : []).find((n) => /^stg_shop__.*\.sql$/.test(n))?.replace(/\.sql$/, '') ?? '';
        if (!stg) await sleep(100);
      }
      assert.ok(stg, 'the staging model of shop');
      fs.mkdirSync(path.join(dir, 'tx/models/marts'), { recursive: true });
      fs.writeFileSync(path.join(dir, 'tx/models/marts/orders_by_status.sql'), `select status, count(*) as orders, sum(amount) as revenue from {{ ref('${stg}') }} group by status\n`);
      const run = await call('root', 'POST', '/api/tx/runs', { command: 'run' });
      assert.equal(run.status, 202, run.text);
      let r: any = {};
      for (let i = 0; i < 900; i++) {
        r = (await call('root', 'GET', `/api/tx/runs/${run.body.id}`)).body;
        if (r.status !== 'queued' && r.status !== 'running') break;
        await sleep(300);
      }
      assert.equal(r.status, 'succeeded', JSON.stringify(r).slice(0, 1500));
    });
    after(() => app?.close());

    const supervisor = () => app.container.resolve<SupersetSupervisor>('biSupervisor');

    test(`Superset starts with the ${backend.type} driver, registers the warehouse as the read-only user and provisions the dashboard`, { timeout: 900_000 }, async () => {
      await supervisor().start();
      assert.equal(supervisor().current.state, 'running');
      const health = (await call('root', 'GET', '/api/health/platform')).body;
      assert.deepEqual(health.bi.dashboards.map((d: { slug: string; state: string }) => [d.slug, d.state]), [['orders', 'created']], JSON.stringify(health.bi.dashboards));
      const db = (await call('root', 'GET', '/bi/api/v1/database/')).body.result.find((d: { database_name: string }) => d.database_name === 'warehouse');
      assert.equal(db.backend, backend.supersetBackend);
      const detail = (await call('root', 'GET', `/bi/api/v1/database/${db.id}/connection`)).body.result;
      assert.match(detail.sqlalchemy_uri, new RegExp(`^${backend.scheme}://${String(running.section.read_user)}:X{5,}@`), 'the read-only user; Superset masks its password');
      for (const secret of Object.values(running.env)) assert.ok(!JSON.stringify(detail).includes(secret));
    });

    test("the dashboard's chart query returns the table's rows, for an admin and a viewer", { timeout: 120_000 }, async () => {
      const dash = (await call('root', 'GET', '/bi/api/v1/dashboard/orders/charts')).body.result;
      assert.deepEqual(dash.map((c: { slice_name: string }) => c.slice_name), ['Orders']);
      const q = `(filters:!((col:table_name,opr:eq,value:${ds.table})))`;
      const found = (await call('root', 'GET', `/bi/api/v1/dataset/?q=${encodeURIComponent(q)}`)).body.result;
      const dataset = found.find((d: { schema: string }) => d.schema === engineSchema);
      assert.ok(dataset, `the dataset is on the engine's schema ${engineSchema}: ${JSON.stringify(found)}`);
      // numbers as numbers (drivers give Decimal strings or floats)
      const row = (r: unknown[]) => r.map((v, k) => (ds.numeric.includes(ds.columns[k]!) ? Number(v) : v));
      const expected = (
        await app.warehouseClient.query(`SELECT ${ds.columns.join(', ')} FROM ${app.warehouseClient.capabilities.qualify(ds.schema, ds.table)} ORDER BY ${ds.orderBy}`, { timeoutMs: 30_000, maxRows: 100 })
      ).rows.map(row);
      assert.deepEqual(
        expected,
        ds.mart
          ? [['open', 1, 3], ['paid', 3, 18.5], ['refunded', 1, 2]]
          : [[1, 'paid', 10.5], [2, 'open', 3], [3, 'paid', 7], [4, 'refunded', 2], [5, 'paid', 1]],
      );
      for (const who of ['root', 'vic']) {
        const csrf = (await call(who, 'GET', '/bi/api/v1/security/csrf_token/')).body?.result;
        const data = await call(
          who,
          'POST',
          '/bi/api/v1/chart/data',
          {
            datasource: { id: dataset.id, type: 'table' },
            form_data: { slice_id: dash[0].id, viz_type: 'table' },
            queries: [{ columns: ds.columns, orderby: [[ds.orderBy, true]], row_limit: 100 }],
            result_format: 'json',
            result_type: 'full',
          },
          { ...(csrf ? { 'x-csrftoken': csrf } : {}), referer: `${url}/bi/superset/dashboard/orders/` },
        );
        assert.equal(data.status, 200, `${who}: ${data.text.slice(0, 400)}`);
        assert.deepEqual(data.body.result[0].data.map((r: Record<string, unknown>) => row(ds.columns.map((c) => r[c]))), expected, who);
      }
    });

    test('SQL Lab reads the table through the read-only user; writes are refused by the engine', { timeout: 120_000 }, async () => {
      const csrf = (await call('root', 'GET', '/bi/api/v1/security/csrf_token/')).body.result;
      const db = (await call('root', 'GET', '/bi/api/v1/database/')).body.result.find((d: { database_name: string }) => d.database_name === 'warehouse');
      const run = (sql: string) => call('root', 'POST', '/bi/api/v1/sqllab/execute/', { database_id: db.id, sql, runAsync: false, schema: engineSchema }, { 'x-csrftoken': csrf, referer: `${url}/bi/sqllab/` });
      const ok = await run(ds.mart ? `select sum(orders) as n from ${engineSchema}.${ds.table}` : `select count(*) as n from ${engineSchema}.${ds.table}`);
      assert.equal(ok.status, 200, ok.text.slice(0, 300));
      assert.equal(Number(ok.body.data[0].n), 5);
      // Superset refuses DML on the database (allow_dml false); the role itself cannot write either
      assert.notEqual((await run(`create table ${engineSchema}.evil(i int)`)).status, 200);
      // Basin's client reads as the same read-only user: the write is refused
      const reader = await clientFor(dir, running);
      try {
        await assert.rejects(reader.query(`DELETE FROM ${reader.capabilities.qualify(ds.schema, ds.table)}`, { timeoutMs: 30_000, maxRows: 1 }), /read.only|not allowed|permission|refused|denied|cannot/i);
      } finally {
        await reader.close();
      }
    });
  });
}
