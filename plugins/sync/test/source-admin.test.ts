import fs from 'node:fs';
import path from 'node:path';
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { BasinApp } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';

/** The sources API the UI's wizard uses: add (with 422 details per field), check, enable/disable, remove. */
let app: BasinApp;
let dir: string;
const XHR = { 'x-requested-with': 'XMLHttpRequest' };

before(async () => {
  dir = makeProject({ '.basin/sources.yml': '# our sources\nversion: "1.0"\nsources: []\n' });
  disableAuth(dir);
  app = await bootApp(dir);
});
after(async () => app?.close());

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => app.http.inject({ method, url, headers: XHR, ...(payload === undefined ? {} : { payload: payload as object }) });

test('a source added over HTTP is checked field by field, written with comments kept, and live at once', async () => {
  const bad = await call('POST', '/api/sources', { name: 'Bad Name', type: 'local_files', config: { file_pattern: '*.csv' } });
  assert.equal(bad.statusCode, 422);
  const details = bad.json().error.details as Array<{ path: string }>;
  assert.deepEqual(details.map((d) => d.path).sort(), ['/config/directory', '/name']);
  assert.equal((await call('POST', '/api/sources', { name: 'x', type: 'no_such_type', config: {} })).statusCode, 422);

  const ok = await call('POST', '/api/sources', { name: 'sales', type: 'local_files', description: 'Sales files', config: { directory: 'data/sales', file_pattern: '*.csv' } });
  assert.equal(ok.statusCode, 201, ok.body);
  const yml = fs.readFileSync(path.join(dir, '.basin', 'sources.yml'), 'utf8');
  assert.match(yml, /^# our sources/);
  assert.match(yml, /name: sales[\s\S]*directory: data\/sales/);
  assert.ok(fs.statSync(path.join(dir, 'data', 'sales')).isDirectory(), 'the folder exists for uploads');
  const list = (await call('GET', '/api/sources')).json() as Array<{ name: string; enabled: boolean }>;
  assert.deepEqual(list.map((s) => s.name), ['sales']);
  assert.equal((await call('POST', '/api/sources', { name: 'sales', type: 'local_files', config: { directory: 'data/sales' } })).statusCode, 422, 'a duplicate name');

  const check = await call('POST', '/api/sources/check', { name: 'sales', type: 'local_files', config: { directory: 'data/sales', file_pattern: '*.csv' } });
  assert.equal(check.statusCode, 200);
  assert.equal(typeof check.json().ok, 'boolean');

  assert.equal((await call('PATCH', '/api/sources/sales', { enabled: false })).statusCode, 200);
  assert.match(fs.readFileSync(path.join(dir, '.basin', 'sources.yml'), 'utf8'), /enabled: false/);
  assert.equal(((await call('GET', '/api/sources')).json() as Array<{ enabled: boolean }>)[0]!.enabled, false);
  assert.equal((await call('PATCH', '/api/sources/sales', { enabled: true })).statusCode, 200);
  assert.equal(((await call('GET', '/api/sources')).json() as Array<{ enabled: boolean }>)[0]!.enabled, true);

  assert.equal((await call('DELETE', '/api/sources/nope')).statusCode, 404);
  assert.equal((await call('DELETE', '/api/sources/sales')).statusCode, 200);
  assert.deepEqual((await call('GET', '/api/sources')).json(), []);
  assert.doesNotMatch(fs.readFileSync(path.join(dir, '.basin', 'sources.yml'), 'utf8'), /name: sales/);
});

test('a PII override from the UI replaces the column\'s entry in pii-overrides.yml and applies at once', async () => {
  const body = { source: 'sales', table: 'sales', column: 'email', status: 'not_pii', reason: 'test data' };
  assert.equal((await call('POST', '/api/governance/pii/overrides', body)).statusCode, 200);
  assert.equal((await call('POST', '/api/governance/pii/overrides', { ...body, status: 'pii' })).statusCode, 200);
  const list = (await call('GET', '/api/governance/pii/overrides')).json() as Array<{ column: string; status: string }>;
  assert.deepEqual(list.filter((o) => o.column === 'email').map((o) => o.status), ['pii']);
  assert.equal((await call('POST', '/api/governance/pii/overrides', { ...body, status: 'maybe' })).statusCode, 422);
});
