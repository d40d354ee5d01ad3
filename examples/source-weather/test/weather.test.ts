import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { collectRead, createTestContext, runSourceContract } from '@basin/sdk/testkit';
import { discoverWorkspacePackages } from '@basin/core';
import source from '../src/index.js';
import { FakeStationApi } from './fake-station-api.js';

const api = new FakeStationApi();
const base_url = await api.start();
after(() => api.stop());
const env = { WEATHER_API_KEY: api.apiKey };

runSourceContract(source, { base_url }, {
  name: 'weather',
  env,
  failingConfig: { base_url, stations: ['nowhere-99'] },
  addData: () => api.addHour(),
});

describe('weather_station example', () => {
  test('reads stations and every observation of the selected stations, tagged with station_id', async () => {
    const ctx = createTestContext(source, { base_url, stations: ['muc-02'] }, { name: 'weather', env });
    const r = await collectRead(source, ctx, []);
    assert.deepEqual(r.records.stations!.map((s) => s.id), ['muc-02']);
    assert.equal(r.records.observations!.length, api.observations.get('muc-02')!.length);
    assert.ok(r.records.observations!.every((o) => o.station_id === 'muc-02'));
    const st = r.state.observations as { stations: Record<string, { cursor: string }> };
    assert.equal(st.stations['muc-02']!.cursor, api.observations.get('muc-02')!.at(-1)!.observed_at);
  });

  test('start_date limits the first sync; the next sync asks only for newer observations', async () => {
    const ctx = () => createTestContext(source, { base_url, stations: ['ber-01'], start_date: '2024-06-02' }, { name: 'weather', env });
    api.requests.length = 0;
    const first = await collectRead(source, ctx(), [{ name: 'observations' }]);
    assert.equal(api.requests.find((u) => u.pathname.endsWith('/observations'))!.searchParams.get('since'), '2024-06-02');
    assert.ok(first.records.observations!.every((o) => String(o.observed_at) >= '2024-06-02'));
    api.addHour();
    const second = await collectRead(source, ctx(), [{ name: 'observations' }], first.state);
    assert.equal(second.records.observations!.length, 1);
  });

  test('a wrong key fails naming WEATHER_API_KEY, without the key', async () => {
    const ctx = createTestContext(source, { base_url }, { name: 'weather', env: { WEATHER_API_KEY: 'wrong-key-000' } });
    await assert.rejects(collectRead(source, ctx, []), (err: any) => /WEATHER_API_KEY/.test(err.message) && !err.message.includes('wrong-key-000'));
  });

  test('the package is discovered as a source with no change to Basin', () => {
    const pkg = discoverWorkspacePackages().find((p) => p.name === '@basin-examples/source-weather');
    assert.ok(pkg, 'found among workspace packages');
    assert.equal(pkg.kind, 'source');
  });
});
