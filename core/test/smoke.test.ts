import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bootApp, makeProject } from '@basin/test';

test('a scaffolded project boots and answers /api/status', async () => {
  const app = await bootApp(makeProject());
  try {
    const r = await app.http.inject({ method: 'GET', url: '/api/status' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().warehouse.status, 'ok');
  } finally {
    await app.close();
  }
});
