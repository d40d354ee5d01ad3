import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { validateProject } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';

const fixture = path.resolve(import.meta.dirname, 'fixtures', 'outside-source');

test('a source package listed in project.yml is validated, listed and synced like a built-in one', async () => {
  const dir = makeProject({
    '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: echo\n    type: outside_echo\n    outside_echo:\n      words: [alpha, beta]\n',
  });
  disableAuth(dir);
  fs.appendFileSync(path.join(dir, '.basin', 'project.yml'), `\nplugins:\n  - ${JSON.stringify(fixture)}\n`);
  assert.deepEqual((await validateProject(dir)).filter((i) => i.severity === 'error'), []);
  const app = await bootApp(dir);
  try {
    const types = (await app.http.inject({ method: 'GET', url: '/api/sources/types' })).json() as Array<{ type: string }>;
    assert.ok(types.some((t) => t.type === 'outside_echo'));
    const r = await app.http.inject({ method: 'POST', url: '/api/sources/echo/sync', payload: {} });
    assert.ok(r.statusCode < 300, r.body);
    const id = r.json().id ?? r.json().record_id;
    await app.container.resolve<{ wait(id: string): Promise<unknown> }>('syncEngine').wait(id);
    assert.deepEqual(await app.warehouse.query('SELECT word FROM raw_echo.words ORDER BY word'), [{ word: 'alpha' }, { word: 'beta' }]);
  } finally {
    await app.close();
  }
});

test("a source's own cross-field rules are checked when the config is loaded", async () => {
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"
sources:
  - name: api
    type: rest_api
    rest_api:
      base_url: https://api.example.com
      endpoints: [{ path: /items }]
      auth_type: basic
      basic_username_env: API_USER
`,
  });
  const issues = (await validateProject(dir)).filter((i) => i.severity === 'error');
  const e = issues.find((i) => i.path === '/sources/0/rest_api/basic_password_env');
  assert.ok(e, JSON.stringify(issues));
  assert.match(e.message, /basic needs basic_password_env/);
  assert.equal(e.file, '.basin/sources.yml');
});
