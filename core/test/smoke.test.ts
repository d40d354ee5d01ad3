import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASIN_VERSION } from '@basin/core';
import { bootApp, makeProject } from '@basin/test';

test('a scaffolded project boots and answers /api/status', async () => {
  const dir = makeProject();
  // a project created by an older Basin
  const yml = path.join(dir, '.basin', 'project.yml');
  fs.writeFileSync(yml, fs.readFileSync(yml, 'utf8').replace(/basin_version: ".*"/, 'basin_version: "0.0.9"'));
  const app = await bootApp(dir);
  try {
    const r = await app.http.inject({ method: 'GET', url: '/api/status' });
    assert.equal(r.statusCode, 200);
    assert.equal(r.json().warehouse.status, 'ok');
    // the running Basin, not the version that created the project (that one is in /api/config)
    assert.equal(r.json().version, BASIN_VERSION);
  } finally {
    await app.close();
  }
});
