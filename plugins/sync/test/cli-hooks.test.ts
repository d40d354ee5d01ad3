// `basin sync` from the shell boots the project without adding its HTTP routes (issue 19: the boot's
// `deferRoutes`); every hook of a sync must still run in that process: the governance checks (PII),
// the events other plugins listen to (the catalog's freshness, webhooks), the history.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { bootApp, disableAuth, makeProject, runCliCaptured } from '@basin/test';

test('a CLI sync runs the PII check, sends the governance webhook, feeds the catalog, the history and the metric monitors, and prints its phases', async (t) => {
  const received: Array<{ event: string; body: any }> = [];
  const rx = http.createServer((req, res) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => {
      const body = JSON.parse(data || '{}');
      received.push({ event: body.event, body });
      res.end('ok');
    });
  });
  await new Promise<void>((r) => rx.listen(0, '127.0.0.1', r));
  t.after(() => new Promise<void>((r) => rx.close(() => r())));
  const url = `http://127.0.0.1:${(rx.address() as AddressInfo).port}/hook`;

  const rows = Array.from({ length: 40 }, (_, i) => `${i + 1},person${i + 1}@example.com,${(i * 7) % 100}`).join('\n');
  const dir = makeProject({
    '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: people\n    type: local_files\n    local_files:\n      directory: data/people\n',
    '.basin/schedules.yml': `schedules: []\nnotifications:\n  webhooks:\n    - { name: ops, url: "${url}" }\n`,
    'data/people/a.csv': `id,email,score\n${rows}\n`,
    '.basin/monitors.yml': 'monitors:\n  - name: people_score\n    source_table: raw_people.people\n    value_expression: sum(score)\n',
  });
  disableAuth(dir);
  const yml = path.join(dir, '.basin', 'project.yml');
  fs.writeFileSync(yml, fs.readFileSync(yml, 'utf8').replace('platform:\n', 'platform:\n  auto_tx: false\n'));

  const r = await runCliCaptured(['sync', 'people', '--project', dir]);
  assert.equal(r.code, 0, r.all);
  assert.match(r.out, /people: succeeded - 40 rows \(raw_people\.people \+40\)/);
  assert.match(r.out, /people: [\d.]+ s in all: start [\d.]+ s, open [\d.]+ s, load [\d.]+ s \([\d,]+ rows\/s\), swap [\d.]+ s, checks [\d.]+ s, publish on first read, close [\d.]+ s/);
  // nobody reads in that process: the serving copy is left for its first reader
  assert.equal(fs.existsSync(path.join(dir, 'data', 'serving.db')), false);

  // the webhook of the PII finding (on_governance) left the process before it ended
  for (let i = 0; i < 100 && !received.some((x) => x.event === 'pii_detected'); i++) await new Promise((res) => setTimeout(res, 50));
  const pii = received.find((x) => x.event === 'pii_detected');
  assert.ok(pii, `webhooks received: ${received.map((x) => x.event).join(', ') || 'none'}`);

  const app = await bootApp(dir);
  try {
    const findings = (await app.http.inject({ method: 'GET', url: '/api/governance/pii' })).json();
    const list = Array.isArray(findings) ? findings : (findings.findings ?? findings.items);
    assert.ok(list.some((f: any) => f.source === 'people' && f.column === 'email' && f.entity_type === 'email'), JSON.stringify(findings));
    const recent = (await app.http.inject({ method: 'GET', url: '/api/sync/recent' })).json();
    const recs = Array.isArray(recent) ? recent : (recent.syncs ?? recent.items);
    assert.ok(recs.some((s: any) => s.source === 'people' && s.status === 'succeeded' && s.trigger === 'cli'), JSON.stringify(recent));
    const summary = await app.http.inject({ method: 'GET', url: '/api/catalog/summary' });
    assert.equal(summary.statusCode, 200, summary.body);
    // the catalog's sync_completed listener recorded the sync's freshness
    const people = summary.json().sources.find((s: any) => s.name === 'people');
    assert.equal(people?.freshness?.rows_last_sync, 40, summary.body);
    // the monitors of the synced source ran before the process ended (they wait 2 s for more syncs)
    const monitoring = (await app.http.inject({ method: 'GET', url: '/api/monitoring' })).json();
    assert.ok(monitoring.last_run, JSON.stringify(monitoring));
    assert.ok(monitoring.monitors.some((m: any) => m.name === 'people_score' && m.latest), JSON.stringify(monitoring));
    // the first reader gets a serving copy holding the synced table
    const q = await app.http.inject({ method: 'POST', url: '/api/query', headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { sql: 'SELECT count(*) AS n FROM raw_people.people' } });
    assert.equal(q.statusCode, 200, q.body);
    assert.deepEqual(q.json().rows, [[40]]);
    assert.equal(app.warehouse.servingCopyStale, false);
  } finally {
    await app.close();
  }
});
