// Notebooks on a server warehouse (issue 22), with the real marimo: the project's warehouse is
// PostgreSQL (the run's shared server) or Trino (the run's shared coordinator); a source synced into
// it, the explore and quality templates run through Basin's proxy and read it with basin_warehouse as
// the read-only user, which cannot write. One app per backend; each notebook server starts once.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import type { AuthService } from '@basin/plugin-auth';
import { bootApp, makeProject } from '@basin/test';
import { postgresBinDir } from '../../../test/support/postgres.js';
import { sharedPostgres } from '../../../test/support/shared-postgres.js';
import { trinoUnderTest } from '../../../test/support/trino-warehouse.js';
import { clientFor } from '../../../test/support/warehouse-backends.js';
import { marimoVenvFor, NotebookServers } from '../src/index.js';
import { NOTEBOOK_PYTHON_DIR } from '../src/servers.js';
import { runNotebook } from './run-notebook.js';
import { callApi } from './api-call.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Backend {
  type: 'postgres' | 'trino';
  unavailable: () => string | null;
  /** the project.yml `warehouse` section and the secrets its *_env settings name */
  start: (dir: string) => Promise<{ section: Record<string, unknown>; env: Record<string, string> }>;
}

const backends: Backend[] = [
  {
    type: 'postgres',
    unavailable: () => (postgresBinDir() ? null : 'PostgreSQL server binaries are not installed (node scripts/setup.mjs postgresql)'),
    async start() {
      const pg = await sharedPostgres();
      const suffix = crypto.randomBytes(4).toString('hex');
      const user = `nb_${suffix}_w`;
      pg.psql(`CREATE ROLE "${user}" LOGIN PASSWORD 'writer-secret' CREATEROLE; CREATE DATABASE "nb_${suffix}" OWNER "${user}";`);
      return {
        section: { type: 'postgres', host: pg.host, port: pg.port, database: `nb_${suffix}`, user, read_user: `${user}_r` },
        env: { BASIN_WAREHOUSE_PASSWORD: 'writer-secret', BASIN_WAREHOUSE_READ_PASSWORD: 'reader-secret' },
      };
    },
  },
  { type: 'trino', unavailable: () => trinoUnderTest.unavailable(), start: (dir) => trinoUnderTest.start(dir) },
];

for (const backend of backends) {
  describe(`notebooks on a ${backend.type} warehouse`, { skip: backend.unavailable() ?? false }, () => {
    let app: BasinApp;
    let url: string;
    let key: string;
    let prefix: string;
    let env: Record<string, string>;

    before(async () => {
      const dir = makeProject({ '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/shop\n', 'data/shop/orders.csv': 'id,status\n1,paid\n2,open\n3,paid\n3,paid\n' });
      const running = await backend.start(dir);
      env = running.env;
      prefix = String(running.section.schema_prefix ?? '');
      const f = path.join(dir, '.basin/project.yml');
      // no dbt after the sync: this project has no models
      fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('  port: 8800\n', '  port: 8800\n  auto_tx: false\n') + `\nwarehouse:\n${Object.entries(running.section).map(([k, v]) => `  ${k}: ${JSON.stringify(v)}`).join('\n')}\n`);
      // the passwords live in the project's .env, as an operator keeps them
      fs.writeFileSync(path.join(dir, '.env'), Object.entries(running.env).map(([k, v]) => `${k}=${v}`).join('\n') + '\n');
      // what an operator's `basin warehouse migrate` does once: the read-only role (PostgreSQL) with its password
      await (await clientFor(dir, running)).close();
      app = await bootApp(dir);
      url = `${(await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '')}/`;
      const auth = app.container.resolve<AuthService>('auth');
      const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, 'ann@example.com', 'editor', 'notebook test password');
      key = auth.keys.create(u.id, 'test', null).key;
      const sync = await api('POST', '/api/sources/shop/sync', {});
      assert.equal(sync.status, 202, JSON.stringify(sync.body));
      let status = '';
      for (let i = 0; i < 1200 && status !== 'succeeded' && status !== 'failed'; i++) {
        await sleep(100);
        status = (await api('GET', `/api/sync/status/${sync.body.id ?? sync.body.sync_id}`)).body.status;
      }
      assert.equal(status, 'succeeded');
    });
    after(() => app?.close());

    const api = (method: string, p: string, body?: unknown) => callApi(url, key, method, p, body);

    test('the explore template counts the synced table through the read-only user; the quality template profiles it', { timeout: 300_000 }, async () => {
      assert.equal((await api('POST', '/api/notebooks', { name: 'orders', template: 'explore' })).status, 201);
      const locked = await api('POST', '/api/notebooks/orders/lock');
      assert.equal(locked.status, 200, JSON.stringify(locked.body));
      const values = await runNotebook(url, key, 'orders');
      assert.match(values.tables ?? '', new RegExp(`${prefix}raw_shop\\.shop`), JSON.stringify(values));
      assert.equal(values.row_count, '4', JSON.stringify(values));
      assert.equal((await api('POST', '/api/notebooks/orders/release')).status, 200);

      assert.equal((await api('POST', '/api/notebooks', { name: 'checks', template: 'quality' })).status, 201);
      assert.equal((await api('POST', '/api/notebooks/checks/lock')).status, 200);
      const quality = await runNotebook(url, key, 'checks');
      assert.equal(quality.dupes, '1', 'the repeated row (3, paid) is counted once');
      assert.equal((await api('POST', '/api/notebooks/checks/release')).status, 200);
    });

    test('basin_warehouse in the notebook venv connects as the read-only user, reads, and cannot write; the password stays in the environment', { timeout: 120_000 }, async () => {
      const servers = (app.container.resolve('notebooks') as { d: { servers: NotebookServers } }).d.servers;
      const wenv = servers.warehouseEnv();
      assert.ok(wenv.BASIN_WAREHOUSE_SQLALCHEMY_URL, 'a server warehouse is given to the notebook server');
      const password = Object.values(env).find((v) => v === wenv.BASIN_WAREHOUSE_READ_PASSWORD);
      assert.ok(password, 'the read-only password');
      assert.ok(!wenv.BASIN_WAREHOUSE_SQLALCHEMY_URL.includes(password));
      const venv = marimoVenvFor(['x']).locate(undefined).dir;
      const script = [
        'import basin_warehouse',
        'wh = basin_warehouse.connect()',
        `print(wh.kind, wh.scalar("select count(*) from ${prefix}raw_shop.shop"))`,
        'try:',
        `    wh.rows("delete from ${prefix}raw_shop.shop")`,
        '    print("wrote")',
        'except Exception as e:',
        '    print("refused", type(e).__name__)',
      ].join('\n');
      const r = spawnSync(path.join(venv, 'bin', 'python'), ['-c', script], { encoding: 'utf8', env: { PATH: process.env.PATH, PYTHONPATH: NOTEBOOK_PYTHON_DIR, ...wenv }, timeout: 90_000 });
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^${backend.type} 4\\nrefused `), r.stdout + r.stderr);
      assert.ok(!(r.stdout + r.stderr).includes(password));
    });
  });
}
