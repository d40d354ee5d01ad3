import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { BasinApp } from '@basin/core';
import type { AuthService } from '@basin/plugin-auth';
import { bootApp, makeProject } from '@basin/test';

/** Basin with the example plugin installed the way a user would: listed in project.yml `plugins:`. */
const pluginDir = path.resolve(import.meta.dirname, '..');
let app: BasinApp;
const as: Record<string, Record<string, string>> = {};

before(async () => {
  const dir = makeProject();
  const yml = path.join(dir, '.basin', 'project.yml');
  fs.writeFileSync(yml, fs.readFileSync(yml, 'utf8').replace(/^plugins:.*$/m, '').concat(`\nplugins:\n  - ${JSON.stringify(pluginDir)}\n`));
  app = await bootApp(dir);
  const auth = app.container.resolve<AuthService>('auth');
  for (const role of ['viewer', 'admin'] as const) {
    const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, `${role}@example.com`, role, 'digest test password');
    as[role] = { authorization: `Bearer ${auth.keys.create(u.id, 'digest', null).key}` };
  }
});
after(() => app?.close());

test('the plugin is loaded only because the project lists it, and its permission joins the matrix', () => {
  assert.ok(app.plugins.some((p) => p.name === 'sync-digest'));
  assert.equal(app.permissions.roleHas('viewer', 'digest.view'), true);
  assert.equal(app.permissions.roleHas('admin', 'digest.view'), true);
});

test('its route is guarded by its permission and answers from the events it listened to', async () => {
  assert.equal((await app.http.inject({ method: 'GET', url: '/api/sync-digest' })).statusCode, 401);
  assert.deepEqual((await app.http.inject({ method: 'GET', url: '/api/sync-digest', headers: as.viewer })).json(), { sources: [] });

  const payload = { source: 'shop', sync_id: 's1', trigger: 'manual' as const, rows: 3, tables: [], duration_seconds: 0.5 };
  app.events.emit('sync_completed', payload);
  app.events.emit('sync_completed', { ...payload, sync_id: 's2', rows: 4 });
  await app.events.idle();

  const one = await app.http.inject({ method: 'GET', url: '/api/sync-digest/shop', headers: as.viewer });
  assert.equal(one.statusCode, 200);
  assert.equal(one.json().syncs, 2);
  assert.equal(one.json().rows, 7);
  const missing = await app.http.inject({ method: 'GET', url: '/api/sync-digest/nope', headers: as.viewer });
  assert.equal(missing.statusCode, 404);
  assert.equal(missing.json().error.code, 'digest_source_unknown');
});

test('its page is served by the shell and listed for users with the permission', async () => {
  const shell = await app.http.inject({ method: 'GET', url: '/sync-digest' });
  assert.equal(shell.statusCode, 200);
  assert.match(shell.body, /<div id="app">/);
  const pages = (await app.http.inject({ method: 'GET', url: '/api/ui/pages', headers: as.viewer })).json() as Array<{ path: string; module: string | null }>;
  const page = pages.find((p) => p.path === '/sync-digest');
  assert.ok(page?.module, JSON.stringify(pages));
  const mod = await app.http.inject({ method: 'GET', url: page.module });
  assert.equal(mod.statusCode, 200);
  assert.match(mod.body, /export default function SyncDigest/);
});

test('the OpenAPI document lists its routes with their error codes and response schema', async () => {
  const doc = (await app.http.inject({ method: 'GET', url: '/api/docs/json' })).json();
  const op = doc.paths['/api/sync-digest/{source}'].get;
  assert.equal(op['x-permission'], 'digest.view');
  assert.deepEqual(op.responses['404'].content['application/json'].schema.properties.error.properties.code.enum, ['digest_source_unknown', 'not_found']);
  assert.equal(op.responses['200'].content['application/json'].schema.properties.syncs.type, 'integer');
});
