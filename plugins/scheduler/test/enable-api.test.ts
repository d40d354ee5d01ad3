import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootApp, disableAuth, makeProject } from '@basin/test';

test('PATCH /api/schedules/{name} disables and enables a schedule in schedules.yml (comments kept) and reloads it', async () => {
  const dir = makeProject({ '.basin/schedules.yml': '# nightly jobs\nschedules:\n  - name: nightly\n    type: tx\n    tx_command: run\n    cron: daily\n' });
  disableAuth(dir);
  const app = await bootApp(dir);
  try {
    const call = (enabled: boolean) => app.http.inject({ method: 'PATCH', url: '/api/schedules/nightly', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { enabled } });
    const off = await call(false);
    assert.equal(off.statusCode, 200, off.body);
    assert.equal(off.json().enabled, false);
    const text = fs.readFileSync(path.join(dir, '.basin', 'schedules.yml'), 'utf8');
    assert.match(text, /^# nightly jobs/);
    assert.match(text, /enabled: false/);
    assert.equal((await call(true)).json().enabled, true);
    assert.doesNotMatch(fs.readFileSync(path.join(dir, '.basin', 'schedules.yml'), 'utf8'), /enabled: false/);
    const missing = await app.http.inject({ method: 'PATCH', url: '/api/schedules/nope', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { enabled: true } });
    assert.equal(missing.statusCode, 404);
  } finally {
    await app.close();
  }
});
