// The example as a user sees it: a Basin project names `type: weather_station` and syncs it, with
// no change to Basin (the package is found because its package.json says "basin": {"kind": "source"}).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { BasinApp } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import { FakeStationApi } from './fake-station-api.js';

const api = new FakeStationApi(10);
let app: BasinApp;

before(async () => {
  const url = await api.start();
  const dir = makeProject({
    '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: weather\n    type: weather_station\n    weather_station:\n      base_url: ${url}\n`,
    '.env': `WEATHER_API_KEY=${api.apiKey}\n`,
  });
  disableAuth(dir);
  app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
});
after(async () => {
  await app?.close();
  await api.stop();
});

test('weather_station is listed among the source types and syncs into raw_weather, incrementally', async () => {
  const types = await app.http.inject({ method: 'GET', url: '/api/sources/types' });
  assert.equal(types.statusCode, 200);
  assert.ok(JSON.stringify(types.json()).includes('weather_station'));

  const engine = app.container.resolve<SyncEngine>('syncEngine');
  const first = await engine.run('weather', { trigger: 'api' });
  assert.equal(first.status, 'succeeded', first.error ?? '');
  const count = async (t: string) => Number((await app.warehouse.query(`SELECT count(*) AS n FROM raw_weather.${t}`))[0]!.n);
  assert.equal(await count('stations'), 2);
  assert.equal(await count('observations'), 20);

  api.addHour();
  const second = await engine.run('weather', { trigger: 'api' });
  assert.equal(second.status, 'succeeded', second.error ?? '');
  assert.equal(await count('observations'), 22, 'only the new hour is added, nothing twice');
  assert.equal(await count('stations'), 2, 'stations are replaced, not appended');
});
