// Dashboards on a server warehouse (issue 22), with the real Superset (started once for this file)
// behind Basin's proxy: the project's warehouse is PostgreSQL (the test run's shared server); a source
// synced into it and a dbt mart built there by dbt-postgres. Superset registers the warehouse as its
// read-only role (psycopg2 in Superset's own venv), provisions the project's dashboard on the mart, and
// the chart's query returns the mart's rows; SQL Lab reads and cannot write.
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
import { clientFor, postgresUnderTest } from '../../../test/support/warehouse-backends.js';
import type { SupersetSupervisor } from '../src/index.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });

const why = postgresBinDir() ? null : postgresUnderTest.unavailable();

const ORDERS = ['id,status,amount', '1,paid,10.5', '2,open,3', '3,paid,7', '4,refunded,2', '5,paid,1'].join('\n') + '\n';

describe('Superset on a PostgreSQL warehouse', { skip: why ?? false }, () => {
  let app: BasinApp;
  let url: string;
  let dir: string;
  let running: { section: Record<string, unknown>; env: Record<string, string> };
  const keys: Record<string, string> = {};

  // each user's bi.SESSION (Superset's CSRF token belongs to the session)
  const jar: Record<string, string> = {};
  async function call(who: string, method: string, p: string, body?: unknown, extra: Record<string, string> = {}) {
    const res = await fetch(`${url}${p}`, {
      method,
      redirect: 'manual',
      headers: { authorization: `Bearer ${keys[who]}`, ...(jar[who] ? { cookie: jar[who] } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('bi.SESSION='));
    if (set) jar[who] = set.split(';')[0]!;
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* HTML */
    }
    return { status: res.status, body: json, text };
  }

  before(async () => {
    const pg = await sharedPostgres();
    const suffix = crypto.randomBytes(4).toString('hex');
    const user = `bi_${suffix}_w`;
    pg.psql(`CREATE ROLE "${user}" LOGIN PASSWORD 'writer-secret' CREATEROLE; CREATE DATABASE "bi_${suffix}" OWNER "${user}";`);
    running = {
      section: { type: 'postgres', host: pg.host, port: pg.port, database: `bi_${suffix}`, user, read_user: `${user}_r` },
      env: { BASIN_WAREHOUSE_PASSWORD: 'writer-secret', BASIN_WAREHOUSE_READ_PASSWORD: 'reader-secret' },
    };
    dir = makeProject({
      '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n',
      'data/shop/orders.csv': ORDERS,
      '.env': 'BASIN_WAREHOUSE_PASSWORD=writer-secret\nBASIN_WAREHOUSE_READ_PASSWORD=reader-secret\n',
      'dashboards/orders.yml': stringify({
        title: 'Orders',
        slug: 'orders',
        charts: [{ name: 'Orders by status', dataset: 'main.orders_by_status', params: { viz_type: 'table', query_mode: 'raw', all_columns: ['status', 'orders', 'revenue'] } }],
      }),
    });
    const f = path.join(dir, '.basin/project.yml');
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('  port: 8800\n', `  port: 8800\n  bi_port: ${await freePort()}\n  auto_tx: false\n`) + `\ntx:\n  docs_after_run: false\n${stringify({ warehouse: running.section })}`);
    // what an operator's `basin warehouse migrate` does once: the read-only role with its password
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

  test('Superset starts with the PostgreSQL driver, registers the warehouse as the read-only role and provisions the dashboard on the mart', { timeout: 900_000 }, async () => {
    await supervisor().start();
    assert.equal(supervisor().current.state, 'running');
    const health = (await call('root', 'GET', '/api/health/platform')).body;
    assert.deepEqual(health.bi.dashboards.map((d: { slug: string; state: string }) => [d.slug, d.state]), [['orders', 'created']], JSON.stringify(health.bi.dashboards));
    const db = (await call('root', 'GET', '/bi/api/v1/database/')).body.result.find((d: { database_name: string }) => d.database_name === 'warehouse');
    assert.equal(db.backend, 'postgresql');
    const detail = (await call('root', 'GET', `/bi/api/v1/database/${db.id}/connection`)).body.result;
    assert.match(detail.sqlalchemy_uri, /^postgresql\+psycopg2:\/\/bi_[0-9a-f]+_w_r:X{5,}@/, 'the read-only role; Superset masks its password');
    assert.ok(!JSON.stringify(detail).includes('reader-secret'));
  });

  test("the dashboard's chart query returns the mart's rows, for an admin and a viewer", { timeout: 120_000 }, async () => {
    const dash = (await call('root', 'GET', '/bi/api/v1/dashboard/orders/charts')).body.result;
    assert.deepEqual(dash.map((c: { slice_name: string }) => c.slice_name), ['Orders by status']);
    const q = `(filters:!((col:table_name,opr:eq,value:orders_by_status)))`;
    const [dataset] = (await call('root', 'GET', `/bi/api/v1/dataset/?q=${encodeURIComponent(q)}`)).body.result;
    assert.equal(dataset.schema, 'main');
    const expected = (await app.warehouseClient.query(`SELECT status, orders, revenue FROM ${app.warehouseClient.capabilities.qualify('main', 'orders_by_status')} ORDER BY status`, { timeoutMs: 10_000, maxRows: 100 })).rows.map((r) => [r[0], Number(r[1]), Number(r[2])]);
    assert.deepEqual(expected, [['open', 1, 3], ['paid', 3, 18.5], ['refunded', 1, 2]]);
    for (const who of ['root', 'vic']) {
      const csrf = (await call(who, 'GET', '/bi/api/v1/security/csrf_token/')).body?.result;
      const data = await call(
        who,
        'POST',
        '/bi/api/v1/chart/data',
        {
          datasource: { id: dataset.id, type: 'table' },
          form_data: { slice_id: dash[0].id, viz_type: 'table' },
          queries: [{ columns: ['status', 'orders', 'revenue'], orderby: [['status', true]], row_limit: 100 }],
          result_format: 'json',
          result_type: 'full',
        },
        { ...(csrf ? { 'x-csrftoken': csrf } : {}), referer: `${url}/bi/superset/dashboard/orders/` },
      );
      assert.equal(data.status, 200, `${who}: ${data.text.slice(0, 400)}`);
      assert.deepEqual(data.body.result[0].data.map((r: { status: string; orders: number; revenue: number }) => [r.status, Number(r.orders), Number(r.revenue)]), expected, who);
    }
  });

  test('SQL Lab reads the mart through the read-only role; writes are refused by PostgreSQL', { timeout: 120_000 }, async () => {
    const csrf = (await call('root', 'GET', '/bi/api/v1/security/csrf_token/')).body.result;
    const db = (await call('root', 'GET', '/bi/api/v1/database/')).body.result.find((d: { database_name: string }) => d.database_name === 'warehouse');
    const run = (sql: string) => call('root', 'POST', '/bi/api/v1/sqllab/execute/', { database_id: db.id, sql, runAsync: false, schema: 'main' }, { 'x-csrftoken': csrf, referer: `${url}/bi/sqllab/` });
    const ok = await run('select sum(orders) as n from main.orders_by_status');
    assert.equal(ok.status, 200, ok.text.slice(0, 300));
    assert.equal(Number(ok.body.data[0].n), 5);
    // Superset refuses DML on the database (allow_dml false); the role itself cannot write either
    assert.notEqual((await run('create table main.evil(i int)')).status, 200);
    const pgClient = await clientFor(dir, running);
    try {
      await assert.rejects(pgClient.query('DELETE FROM main.orders_by_status', { timeoutMs: 10_000, maxRows: 1 }), /read-only|not allowed|permission|refused/i);
    } finally {
      await pgClient.close();
    }
  });
});
