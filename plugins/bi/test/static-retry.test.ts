// The /bi proxy asks Superset once more for a static asset that came back 5xx (a fresh-clone run saw
// Superset 6.1 fail a webpack chunk of the dashboard page with a 500, and the charts never drew).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { httpCall } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { biSupervisorRef } from '../src/contract.js';
import { freePort } from '../../../test/support/server-process.js';
import { fakeSupersetVenv } from './fake-superset.js';

test('a static asset Superset fails once with a 500 reaches the browser as a 200; other answers pass as they are', async () => {
  const dir = makeProject();
  disableAuth(dir);
  const yml = path.join(dir, '.basin', 'project.yml');
  fs.writeFileSync(yml, fs.readFileSync(yml, 'utf8').replace('platform:\n', `platform:\n  bi_port: ${await freePort()}\n`));
  fakeSupersetVenv(dir);
  const app = await bootApp(dir);
  try {
    await app.resolve(biSupervisorRef).start();
    const address = await app.http.listen({ port: 0, host: '127.0.0.1' });
    const asset = await httpCall(`${address}/bi/static/assets/flaky-once.js`, { method: 'GET', timeoutMs: 10_000 });
    assert.equal(asset.status, 200, asset.text);
    assert.equal(asset.text, 'console.log("chunk")');
    // a missing asset is not retried into something else
    assert.equal((await httpCall(`${address}/bi/static/assets/missing.js`, { method: 'GET', timeoutMs: 10_000 })).status, 404);
  } finally {
    await app.close();
  }
});
