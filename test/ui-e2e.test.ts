import fs from 'node:fs';
import path from 'node:path';
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { authenticator } from 'otplib';
import type { BasinApp } from '@basin/core';
import { bootApp, makeProject } from '@basin/test';
import { launchBrowser } from './support/browser.js';
import { axeCheck, ensureUiBuilt, keepScreenshot, type AxeFinding } from './support/ui-check.js';

/**
 * The product through its browser UI, end to end, as admin, viewer and editor against one real server
 * on a real project (auth on, real DuckDB, real dbt): first admin at /setup, a local_files source from
 * the wizard, a CSV dropped on the page, a sync watched live to its row count, dbt run from the models
 * page, a mart's lineage followed to its source, drift accepted, a PII finding overridden, a user
 * invited and signed in from a second browser, TOTP enrolled and used, an API key used, a role changed.
 * Every page is checked by axe-core and kept as a screenshot.
 */
const ADMIN = { email: 'admin@example.com', password: 'correct horse battery staple' };
const VIEWER = { email: 'vera@example.com', password: 'another long passphrase' };
const ROWS = 500;

let app: BasinApp;
let base: string;
let dir: string;
let browser: Browser;
let setupLink: string;
const axeFindings: AxeFinding[] = [];
const pageErrors: string[] = [];

before(async () => {
  ensureUiBuilt();
  dir = makeProject();
  app = await bootApp(dir);
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => (printed.push(String(chunk)), true)) as typeof process.stdout.write;
  try {
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  } finally {
    process.stdout.write = write;
  }
  setupLink = /(http:\/\/\S+\/setup\?token=\S+)/.exec(printed.join(''))![1]!;
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await app?.close();
});

async function newContext(): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  page.on('pageerror', (e) => pageErrors.push(`${page.url()}: ${e.message}`));
  page.setDefaultTimeout(30_000);
  return { ctx, page };
}

/** opens a page, waits for its content, runs axe-core and keeps a screenshot */
async function visit(page: Page, url: string, name: string, ready: string): Promise<void> {
  await page.goto(`${base}${url}`);
  await page.waitForSelector(ready);
  await page.waitForTimeout(300);
  axeFindings.push(...(await axeCheck(page, name)));
  await keepScreenshot(page, name);
}

function csv(from: number, n: number, amount: (i: number) => string): string {
  const names = ['Anna Schmidt', 'Ben Müller', 'Chloé Martin', 'David Jones', 'Eva Novak'];
  const lines = ['order_id,customer_email,customer_name,amount'];
  for (let i = from; i < from + n; i++) lines.push(`${i},${names[i % 5]!.split(' ')[0]!.toLowerCase()}${i}@example.com,${names[i % 5]},${amount(i)}`);
  return lines.join('\n') + '\n';
}

/** drops a file on the page's drop zone the way a browser does (a DataTransfer on a drop event) */
async function dropFile(page: Page, name: string, content: string): Promise<void> {
  await page.evaluate(
    ({ name, content }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([content], name, { type: 'text/csv' }));
      const zone = document.querySelector('.dropzone')!;
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { name, content },
  );
}

async function waitForIdleTx(page: Page): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const runs = (await (await page.request.get(`${base}/api/tx/runs?limit=5`)).json()) as { items: Array<{ status: string }> };
    if (!runs.items.some((r) => r.status === 'queued' || r.status === 'running')) return;
    await page.waitForTimeout(500);
  }
  throw new Error('dbt is still running after 2 minutes');
}

test('the whole product through the browser: admin, viewer and editor', { timeout: 600_000 }, async () => {
  const { ctx: adminCtx, page } = await newContext();
  try {
    await endToEnd(adminCtx, page);
  } catch (e) {
    // the page as it was when a step failed, for the person reading the CI log
    await keepScreenshot(page, 'failure').catch(() => {});
    throw e;
  }
});

async function endToEnd(adminCtx: BrowserContext, page: Page): Promise<void> {
  // an app page without a session goes to the login page
  await page.goto(`${base}/sources`);
  await page.waitForURL(/\/login\?next=/);
  await page.waitForSelector('input[name=email]');
  axeFindings.push(...(await axeCheck(page, 'login')));
  await keepScreenshot(page, 'login');

  // 1. the first admin at /setup (the one-time link the server printed)
  await page.goto(setupLink);
  await page.fill('input[name=email]', ADMIN.email);
  await page.fill('input[name=password]', ADMIN.password);
  await page.fill('input[name=confirm]', ADMIN.password);
  axeFindings.push(...(await axeCheck(page, 'setup')));
  await keepScreenshot(page, 'setup');
  await page.click('button:has-text("Create admin")');
  await page.waitForSelector('h1:has-text("Overview")');
  assert.ok(await page.locator('nav.side a', { hasText: /^Users$/ }).count(), 'an admin sees Users');

  // 2. a local_files source through the wizard (a 422 detail shows beside its field first)
  await page.goto(`${base}/sources`);
  await page.click('button:has-text("Add source")');
  await page.selectOption('#src-type', 'local_files');
  await page.fill('#src-name', 'sales');
  await page.click('button:has-text("Add source") >> nth=-1');
  await page.waitForSelector('.field-error');
  assert.match(await page.locator('label:has(#f-directory) .field-error').textContent() ?? '', /required/i);
  await page.fill('#f-directory', 'data/sales');
  await page.fill('#f-file_pattern', '*.csv');
  await page.click('button:has-text("Check connection")');
  await page.waitForSelector('[role=status]:has-text("Check")');
  await page.click('dialog button[type=submit]');
  await page.waitForURL(/\/sources\?name=sales/);
  await page.waitForSelector('h1:has-text("sales")');

  // 3. upload a CSV by dropping it on the page
  await page.click('[role=tab]:has-text("Files")');
  await page.waitForSelector('.dropzone');
  await dropFile(page, 'sales_1.csv', csv(1, ROWS, (i) => (i * 1.5).toFixed(2)));
  await page.waitForSelector('text=sales_1.csv uploaded');
  await page.waitForSelector('td:has-text("sales_1.csv")');

  // 4. sync and watch the live progress reach the final row count
  await page.click('button:has-text("Sync now")');
  await page.waitForSelector(`.sync-progress:has(.pill.succeeded) .sync-rows:has-text("${ROWS} rows")`, { timeout: 60_000 });
  await visit(page, '/sources?name=sales&tab=tables', 'source-page', 'summary:has-text("raw_sales.sales")');

  // 5. dbt: the generated staging model plus a mart on it, run from the models page
  await waitForIdleTx(page);
  fs.writeFileSync(path.join(dir, 'tx', 'models', 'marts', 'mart_sales.sql'), "select customer_name, count(*) as orders, sum(amount) as revenue\nfrom {{ ref('stg_sales__sales') }}\ngroup by 1\n");
  await page.goto(`${base}/models`);
  await page.click('button:has-text("Run all")');
  await page.waitForSelector('.tx-run .pill.succeeded', { timeout: 180_000 });
  await page.waitForSelector('.model-status[data-model=mart_sales] .pill.success');
  await page.waitForSelector('.model-status[data-model=stg_sales__sales] .pill.success');
  await visit(page, '/models', 'models', '.model-status[data-model=mart_sales]');

  // 6. the lineage graph of the mart, followed to its source (after any dbt run the syncs queued: the catalog reads the warehouse)
  await waitForIdleTx(page);
  await page.goto(`${base}/catalog?model=mart_sales&tab=lineage&focus=3`);
  await page.waitForSelector('.graph g.node[data-name=mart_sales]', { timeout: 60_000 });
  await visit(page, '/catalog?model=mart_sales&tab=lineage&focus=3', 'catalog-lineage', '.graph g.node[data-name=mart_sales]');
  assert.ok(await page.locator('.graph g.node[data-name="sales.sales"]').count(), 'the raw table is upstream of the mart');
  await page.click('.graph g.node[data-name=stg_sales__sales]');
  await page.waitForURL(/model=stg_sales__sales/);
  await page.waitForSelector('.card h2:has-text("stg_sales__sales")', { timeout: 60_000 });
  await page.waitForSelector('.graph g.node[data-name=stg_sales__sales] rect[stroke="#111"]');
  await page.click('.graph g.node[data-name="sales.sales"]');
  await page.waitForURL(/model=sales\.sales/);
  await page.waitForSelector('.card h2:has-text("sales.sales")', { timeout: 60_000 });
  // search is kept in the URL; the type filter too
  await page.goto(`${base}/catalog?type=marts`);
  await page.waitForSelector('td a:has-text("mart_sales")');
  assert.equal(await page.locator('td a:has-text("stg_sales__sales")').count(), 0);
  await visit(page, '/catalog', 'catalog', 'td a:has-text("mart_sales")');

  // 7. override a PII finding
  await page.goto(`${base}/sources?name=sales&tab=pii`);
  const email = page.locator('tr', { has: page.locator('td', { hasText: /^customer_email$/ }) });
  await email.waitFor();
  await email.locator('button:has-text("Not PII")').click();
  await email.waitFor({ state: 'detached' });
  await page.check('text=Show dismissed findings');
  await page.locator('tr', { has: page.locator('td', { hasText: /^customer_email$/ }) }).locator('.pill.not_pii').waitFor();
  assert.match(fs.readFileSync(path.join(dir, '.basin', 'pii-overrides.yml'), 'utf8'), /customer_email[\s\S]*not_pii/);

  // 8. a drifting column (amount becomes text), then accept the drift
  await page.goto(`${base}/sources?name=sales&tab=files`);
  await page.waitForSelector('.dropzone');
  await dropFile(page, 'sales_2.csv', csv(ROWS + 1, 3, (i) => (i % 2 ? 'n/a' : '7.5')));
  await page.waitForSelector('text=sales_2.csv uploaded');
  await page.click('button:has-text("Sync now")');
  await page.waitForSelector('.sync-progress .pill.succeeded, .sync-progress .pill.failed', { timeout: 60_000 });
  await page.goto(`${base}/sources?name=sales&tab=schema`);
  await page.waitForSelector('text=Schema drift needs a decision');
  axeFindings.push(...(await axeCheck(page, 'source-drift')));
  await keepScreenshot(page, 'source-drift');
  await page.click('button:has-text("Accept the current schema")');
  await page.waitForSelector('text=No pending schema drift.');

  // 9. invite a user; the link opens in a second browser, where they land with a viewer's view
  await visit(page, '/settings/users', 'users', 'form[aria-label="Invite a user"]');
  await page.fill('form[aria-label="Invite a user"] input[name=email]', VIEWER.email);
  await page.click('form[aria-label="Invite a user"] button');
  const link = (await page.locator('.invite-link').textContent())!.trim();
  assert.match(link, /\/invite\//);
  const { ctx: viewerCtx, page: viewer } = await newContext();
  await viewer.goto(link);
  await viewer.fill('input[name=password]', VIEWER.password);
  await viewer.fill('input[name=confirm]', VIEWER.password);
  axeFindings.push(...(await axeCheck(viewer, 'invite')));
  await keepScreenshot(viewer, 'invite');
  await viewer.click('button:has-text("Set password")');
  await viewer.waitForSelector('h1:has-text("Overview")');
  assert.equal(await viewer.locator('nav.side a', { hasText: /^Users$/ }).count(), 0, 'a viewer has no Users entry');
  await viewer.goto(`${base}/sources`);
  await viewer.waitForSelector('td a:has-text("sales")');
  assert.equal(await viewer.locator('button:has-text("Add source")').count(), 0, 'a viewer cannot add sources');
  assert.equal(await viewer.locator('button:has-text("Sync")').count(), 0, 'a viewer cannot sync');

  // 10. enroll TOTP (QR code drawn in the page), then log in again with a code
  await visit(page, '/settings/account', 'account', 'h2:has-text("Two-factor")');
  await page.fill('form:has(button:has-text("Set up two-factor")) input[name=password]', ADMIN.password);
  await page.click('button:has-text("Set up two-factor")');
  await page.waitForSelector('img.qr');
  const secret = (await page.locator('.totp-secret').textContent())!.trim();
  await page.fill('input[name=code]', authenticator.generate(secret));
  await page.click('button:has-text("Turn on")');
  await page.waitForSelector('.recovery-codes');
  await page.click('button:has-text("Log out")');
  await page.waitForURL(/\/login/);
  await page.fill('input[name=email]', ADMIN.email);
  await page.fill('input[name=password]', ADMIN.password);
  await page.click('button:has-text("Sign in")');
  await page.waitForSelector('input[name=code]');
  // the next 30-second step: the enrollment code's step is used up
  await page.fill('input[name=code]', authenticator.clone({ epoch: Date.now() + 30_000 }).generate(secret));
  await page.click('button:has-text("Verify")');
  await page.waitForSelector('h1:has-text("Overview")');

  // 11. an API key, shown once, calls the API
  await page.goto(`${base}/settings/account`);
  await page.fill('input[placeholder="e.g. nightly export"]', 'e2e key');
  await page.click('button:has-text("Create key")');
  const key = (await page.locator('.api-key').textContent())!.trim();
  const me = await fetch(`${base}/api/auth/me`, { headers: { authorization: `Bearer ${key}` } });
  assert.equal(me.status, 200);
  assert.equal(((await me.json()) as { email: string }).email, ADMIN.email);

  // 12. change the viewer's role; their controls change
  await page.goto(`${base}/settings/users`);
  await page.selectOption(`select[aria-label="Role of ${VIEWER.email}"]`, 'editor');
  await page.waitForFunction((email) => (document.querySelector(`select[aria-label="Role of ${email}"]`) as HTMLSelectElement | null)?.value === 'editor', VIEWER.email);
  await viewer.goto(`${base}/sources`);
  await viewer.waitForSelector('button:has-text("Add source")');
  await viewer.waitForSelector('button[aria-label="Sync sales"]');

  // 13. a dropped /ws connection reconnects and says so
  await page.goto(`${base}/`);
  await page.waitForSelector('.live.ok');
  // the browser's own module (a URL, not a file of this repo)
  await page.evaluate((url) => import(url).then((m: { dropLive(): void }) => m.dropLive()), '/ui/live.js');
  await page.waitForSelector('.live.down:has-text("reconnecting")');
  await page.waitForSelector('.live.ok');

  // every other page: content, axe-core, a screenshot; and the narrow layout
  await visit(page, '/', 'overview', 'h2:has-text("Rows loaded per day")');
  await visit(page, '/sources', 'sources', 'td a:has-text("sales")');
  await visit(page, '/schedules', 'schedules', 'h2:has-text("Webhooks")');
  await visit(page, '/notebooks', 'notebooks', 'h1:has-text("Notebooks")');
  await visit(page, '/health', 'health', 'h2:has-text("Services")');
  await visit(page, '/logs', 'logs', 'td a:has-text("sales")');
  await visit(page, '/query', 'query', '.cm-editor');
  await page.click('main button:text-is("Run")');
  await page.waitForSelector('th:has-text("table name"), .error-box');
  assert.equal(await page.locator('.error-box').count(), 0, (await page.locator('.error-box').first().textContent().catch(() => '')) ?? '');
  await visit(page, '/settings/secrets', 'secrets', 'h1:has-text("Secrets")');
  await page.setViewportSize({ width: 390, height: 844 });
  await visit(page, '/', 'overview-narrow', 'h2:has-text("Rows loaded per day")');
  await page.click('button[aria-label=Menu]');
  await page.waitForSelector('nav.side a:has-text("Sources")');
  await keepScreenshot(page, 'nav-narrow');

  await viewerCtx.close();
  await adminCtx.close();
  assert.deepEqual(pageErrors, [], 'no script errors in any page');
  assert.deepEqual(axeFindings, [], 'no serious or critical accessibility violations');
}

test('the login page says how long a locked-out address must wait, and counts it down', { timeout: 120_000 }, async () => {
  const { ctx, page } = await newContext();
  await page.goto(`${base}/login`);
  // a pair of address and e-mail that no other step uses: only it is locked
  for (let i = 0; i < 6; i++) {
    await page.fill('input[name=email]', 'nobody@example.com');
    await page.fill('input[name=password]', `wrong password ${i}`);
    await page.click('button:has-text("Sign in")');
    await page.waitForSelector('.error-box');
    if (await page.locator('text=/You can try again in \\d+ s/').count()) break;
    await page.waitForFunction(() => !(document.querySelector('form button') as HTMLButtonElement).disabled);
  }
  await page.waitForSelector('text=/You can try again in \\d+ s/');
  assert.match((await page.locator('.error-box').textContent()) ?? '', /Too many failed logins/);
  assert.ok(await page.locator('button:has-text("Sign in")').isDisabled(), 'the button waits too');
  await ctx.close();
});
