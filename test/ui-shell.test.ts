import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import type { BasinApp } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { launchBrowser } from './support/browser.js';

let app: BasinApp;
let base: string;
let browser: Browser;

before(async () => {
  const dir = makeProject();
  disableAuth(dir);
  app = await bootApp(dir);
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

test('the app shell renders navigation and the live status from /api/status, with no outside requests', async () => {
  const page = await browser.newPage();
  const outside: string[] = [];
  page.on('request', (r) => {
    if (!r.url().startsWith(base)) outside.push(r.url());
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${base}/`);
  await page.waitForSelector('text=Services');
  for (const label of ['Overview', 'Sources', 'Models', 'Catalog', 'Schedules', 'Health', 'Logs']) {
    assert.equal(await page.locator('nav.side a', { hasText: new RegExp(`^${label}$`) }).count(), 1, `one nav entry ${label}`);
  }
  // the warehouse card shows the status the API reports
  const card = page.locator('.card', { hasText: 'Warehouse' }).last();
  await card.locator('.pill.ok').waitFor();
  assert.deepEqual(errors, []);
  assert.deepEqual(outside, []);
  await page.close();
});

test('every HTML page route serves the shell (the /query page itself goes to the dashboard tool when it runs)', async () => {
  for (const p of ['/sources', '/models', '/health', '/logs', '/catalog', '/schedules', '/notebooks', '/login', '/setup', '/invite/abc', '/settings/users', '/settings/account', '/settings/secrets', '/query']) {
    const r = await app.http.inject({ method: 'GET', url: p });
    assert.equal(r.statusCode, 200, p);
    assert.match(r.headers['content-type'] as string, /text\/html/);
    assert.match(r.body, /<div id="app">/);
  }
  // every page of SPEC "HTML page routes" comes from the plugin that owns its feature
  const pages = JSON.parse((await app.http.inject({ method: 'GET', url: '/api/ui/pages' })).body) as Array<{ path: string; module: string | null }>;
  for (const p of ['/', '/sources', '/models', '/health', '/logs', '/catalog', '/schedules', '/notebooks', '/login', '/setup', '/invite/:token', '/settings/users', '/settings/account', '/settings/secrets', '/query']) {
    const page = pages.find((x) => x.path === p);
    assert.ok(page?.module, `a plugin provides the page ${p}`);
    assert.equal((await app.http.inject({ method: 'GET', url: page.module })).statusCode, 200, page.module);
  }
});

test('with auth off the login page goes on to the app, and UI files cannot be read outside their folders', async () => {
  const page = await browser.newPage();
  await page.goto(`${base}/login?next=/models`);
  await page.waitForURL(`${base}/models`);
  await page.waitForSelector('h1:has-text("Models")');
  await page.close();
  const outside = await app.http.inject({ method: 'GET', url: '/ui/ext/0/..%2f..%2fpackage.json' });
  assert.equal(outside.statusCode, 404);
  const escape = await app.http.inject({ method: 'GET', url: '/ui/..%2f..%2fpackage.json' });
  assert.equal(escape.statusCode, 404);
  const vendor = await app.http.inject({ method: 'GET', url: '/ui/vendor/preact.module.js' });
  assert.equal(vendor.statusCode, 200);
});

test('a page contributed by an outside plugin appears in the navigation and renders', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const dir = makeProject();
  disableAuth(dir);
  fs.appendFileSync(path.join(dir, '.basin', 'project.yml'), `\nplugins:\n  - ${JSON.stringify(path.resolve(import.meta.dirname, 'fixtures', 'test-plugin'))}\n`);
  const app2 = await bootApp(dir);
  const base2 = await app2.listen({ host: '127.0.0.1', port: 0 });
  try {
    const page = await browser.newPage();
    await page.goto(`${base2}/greeter`);
    await page.waitForSelector('#greeting');
    assert.equal(await page.locator('#greeting').textContent(), 'Hello from a plugin page');
    assert.ok(await page.locator('nav.side a', { hasText: 'Greeter' }).count());
    await page.close();
  } finally {
    await app2.close();
  }
});
