import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { definePlugin, ManualClock } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import { sourceStatusPoint } from '@basin/plugin-sources/contract';
import schedulerPlugin from '@basin/plugin-scheduler';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import syncPlugin from '../src/index.js';
import { registerTestSources } from './helpers.js';

describe('GET /api/sources with other plugins installed', () => {
  let close: () => Promise<void> = async () => {};
  after(() => close());

  it('carries schedule info from the scheduler and attention flags from a contributor (as governance adds them)', async () => {
    const flagging = definePlugin({
      name: 'flagging',
      optionalDependsOn: ['sources'],
      register: (ctx) => ctx.extensionPoint(sourceStatusPoint)?.contribute({ attention: async () => new Set(['other']) }),
    });
    await registerTestSources();
    const dir = makeProject({
      '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: shop\n    type: test_records\n  - name: other\n    type: test_records\n',
      '.basin/schedules.yml': 'schedules:\n  - name: nightly\n    type: sync\n    cron: "0 3 * * *"\n    sources: [shop]\n',
    });
    disableAuth(dir);
    const app = await bootApp(dir, {
      clock: new ManualClock('2026-03-01T12:00:00Z'),
      plugins: [sourcesPlugin, syncPlugin, schedulerPlugin, flagging],
    });
    close = () => app.close();
    const list = (await app.http.inject({ method: 'GET', url: '/api/sources' })).json();
    const shop = list.find((s: any) => s.name === 'shop');
    const other = list.find((s: any) => s.name === 'other');
    assert.equal(shop.schedule.schedules[0].name, 'nightly');
    assert.equal(shop.schedule.schedules[0].cron, '0 3 * * *');
    assert.equal(other.schedule, null);
    assert.equal(shop.needs_attention, false);
    assert.equal(other.needs_attention, true);
  });
});
