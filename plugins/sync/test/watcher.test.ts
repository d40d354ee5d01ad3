import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import type { EventName } from '@basin/core';
import { patternMatcher } from '../src/watcher.js';
import { bootSync, type SyncTestApp } from './helpers.js';

const YML = `version: "1.0"\nsources:\n  - name: drop\n    type: local_files\n    local_files:\n      directory: data/uploads/drop\n  - name: other\n    type: local_files\n    local_files:\n      directory: data/elsewhere\n`;

function nextEvent(t: SyncTestApp, type: EventName, ms = 15000): Promise<any> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${type} within ${ms} ms`)), ms);
    const off = t.app.events.on(type, (p) => {
      clearTimeout(timer);
      off();
      resolve(p);
    });
  });
}

describe('file watcher', () => {
  const apps: SyncTestApp[] = [];
  after(async () => {
    for (const a of apps) await a.close();
  });

  it('matches watch patterns on base names and ignores dotfiles', () => {
    const m = patternMatcher(['*.csv', '*.jsonl']);
    assert.equal(m('/x/a.csv'), true);
    assert.equal(m('/x/A.CSV'), true);
    assert.equal(m('/x/a.csv.tmp'), false);
    assert.equal(m('/x/.upload-1.tmp'), false);
    assert.equal(m('/x/b.json'), false);
  });

  it('a new file in a watched directory syncs the source whose directory holds it', async () => {
    const t = await bootSync(YML, { 'data/uploads/drop/.keep': '' }, { platform: '  debounce_seconds: 0\n' });
    apps.push(t);
    await t.app.start();
    const status = (await t.app.http.inject({ method: 'GET', url: '/api/watcher/status' })).json();
    assert.equal(status.running, true);
    const done = nextEvent(t, 'sync_completed');
    fs.writeFileSync(path.join(t.dir, 'data/uploads/drop/new.csv'), 'id\n1\n2\n');
    const p = await done;
    assert.equal(p.source, 'drop');
    assert.equal(p.trigger, 'watcher');
    assert.equal(p.rows, 2);
  });

  it('with auto_sync off it records the change but starts nothing', async () => {
    const t = await bootSync(YML, { 'data/uploads/drop/.keep': '' }, { platform: '  debounce_seconds: 0\n  auto_sync: false\n' });
    apps.push(t);
    await t.app.start();
    let started = 0;
    t.app.events.on('sync_started', () => void started++);
    fs.writeFileSync(path.join(t.dir, 'data/uploads/drop/new.csv'), 'id\n1\n');
    const deadline = Date.now() + 10000;
    let st: any;
    do {
      await new Promise((r) => setTimeout(r, 100));
      st = (await t.app.http.inject({ method: 'GET', url: '/api/watcher/status' })).json();
    } while (!st.last_event && Date.now() < deadline);
    assert.match(st.last_event?.path ?? '', /new\.csv$/);
    assert.equal(st.enabled, false);
    assert.equal(started, 0);
  });
});
