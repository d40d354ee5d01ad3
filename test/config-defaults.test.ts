import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, type ConfigFileSpec, type ConfigSectionSpec } from '@basin/core';
import { AuthSection } from '@basin/plugin-auth';
import { ApiSection } from '@basin/plugin-query';
import { schedulesFileSpec } from '@basin/plugin-scheduler';
import { monitorsFileSpec } from '@basin/plugin-monitoring';
import { piiOverridesFileSpec } from '@basin/plugin-governance';
import { cloudFileSpec, biFileSpec } from '@basin/plugin-platform';
import { tempDir } from '@basin/test';

const sections: Array<ConfigSectionSpec & { owner: string }> = [
  { section: 'auth', schema: AuthSection, owner: 'auth' },
  { section: 'api', schema: ApiSection, owner: 'query' },
];
const files: ConfigFileSpec[] = [schedulesFileSpec, monitorsFileSpec, piiOverridesFileSpec, cloudFileSpec, biFileSpec];

function project(content: Record<string, string>): string {
  const dir = tempDir();
  for (const [rel, text] of Object.entries(content)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

const MINIMAL = `project:\n  name: demo\n  created: "2026-01-01T00:00:00Z"\n  created_by: me@example.com\n  purpose: testing\n`;

test('every platform, auth and api field gets the SPEC default', () => {
  const { project: p, issues } = loadConfig({ projectDir: project({ '.basin/project.yml': MINIMAL }), files, sections });
  assert.deepEqual(issues.filter((i) => i.severity === 'error'), []);
  assert.deepEqual(p.platform, {
    db_path: './data/warehouse.db',
    tx_project_dir: './tx',
    data_dir: './data',
    port: 8800,
    bi_port: 3000,
    tx_docs_port: 8081,
    notebook_port: 7805,
    auto_sync: true,
    auto_tx: true,
    debounce_seconds: 600,
    tx_coalesce_seconds: 10,
    workers: null,
    watch_patterns: ['*.csv', '*.json', '*.jsonl', '*.ndjson', '*.parquet'],
    watch_directories: ['data/uploads'],
    deployment: 'local',
  });
  assert.deepEqual(p.auth, {
    enabled: true,
    idle_timeout_minutes: 1440,
    session_max_days: 365,
    password_max_age_days: 0,
    require_2fa: false,
    rate_limit: { enabled: true, login: { requests: 10, window_seconds: 60 }, api: { requests: 200, window_seconds: 60 }, trusted_proxies: [] },
    lockout: { max_attempts: 5, lockout_minutes: 15 },
    oauth_providers: {},
  });
  assert.deepEqual(p.api, {
    query_max_rows: 10000,
    query_timeout_seconds: 30,
    // Basin's additions (issue 12): response bytes, concurrency, queue, memory per query process
    query_max_response_bytes: 33554432,
    query_concurrency: 2,
    query_queue_size: 16,
    query_memory_mb: 1024,
  });
  assert.deepEqual(p.plugins, []);
  // issue 22: the embedded DuckDB of platform.db_path unless project.yml picks another backend
  assert.deepEqual(p.warehouse, { type: 'duckdb' });
});

test('absent files get their schema defaults (schedules, notifications, monitors, cloud, pii)', () => {
  const { files: f } = loadConfig({ projectDir: project({ '.basin/project.yml': MINIMAL }), files, sections });
  assert.deepEqual(f.get('schedules')!.value, {
    schedules: [],
    notifications: { webhooks: [], on_failure: true, on_success: true, on_stale: true, on_governance: true, on_analysis: true, stale_threshold_hours: 24 },
  });
  assert.deepEqual(f.get('monitors')!.value, { enabled: true, monitors: [] });
  assert.deepEqual(f.get('pii-overrides')!.value, { overrides: [] });
  const cloud = f.get('cloud')!.value;
  assert.equal(cloud.region, 'nyc1');
  assert.equal(cloud.size, 's-2vcpu-4gb');
  assert.equal(cloud.deploy_branch, 'main');
  assert.equal(cloud.ssh_key_path, '.basin/cloud_key');
});

test('schedule and monitor fields get their defaults; webhooks default to generic format', () => {
  const dir = project({
    '.basin/project.yml': MINIMAL,
    '.basin/schedules.yml': `schedules:\n  - name: nightly\n    cron: daily\n    sources: [shop]\nnotifications:\n  webhooks:\n    - name: ops\n      url: https://hooks.example.com/x\n`,
    '.basin/monitors.yml': `monitors:\n  - name: revenue\n    source_table: raw_shop.orders\n    value_expression: sum(amount)\n`,
  });
  const { files: f, issues } = loadConfig({ projectDir: dir, files, sections });
  assert.deepEqual(issues.filter((i) => i.severity === 'error'), []);
  const s = f.get('schedules')!.value.schedules[0];
  assert.equal(s.type, 'sync');
  assert.equal(s.enabled, true);
  assert.deepEqual(s.notify_on, []);
  assert.equal(f.get('schedules')!.value.notifications.webhooks[0].format, 'generic');
  const m = f.get('monitors')!.value.monitors[0];
  assert.equal(m.compare, 'week_over_week');
  assert.deepEqual(m.drill_down, []);
});

test('metrics.yml, the `metrics` key and warn_threshold are accepted as aliases', () => {
  const dir = project({
    '.basin/project.yml': MINIMAL,
    '.basin/metrics.yml': `metrics:\n  - name: orders\n    source_table: raw_shop.orders\n    value_expression: count(*)\n    warn_threshold: 15.5\n`,
  });
  const { files: f, issues } = loadConfig({ projectDir: dir, files, sections });
  assert.deepEqual(issues.filter((i) => i.severity === 'error'), []);
  const loaded = f.get('monitors')!;
  assert.equal(loaded.resolvedPath, '.basin/metrics.yml');
  assert.equal(loaded.value.monitors[0].alert_threshold, 15.5);
  assert.equal('warn_threshold' in loaded.value.monitors[0], false);
});

test('a webhook URL that is not http(s) is an error naming the field', () => {
  const dir = project({
    '.basin/project.yml': MINIMAL,
    '.basin/schedules.yml': `schedules: []\nnotifications:\n  webhooks:\n    - name: ops\n      url: ftp://example.com/hook\n`,
  });
  const { issues } = loadConfig({ projectDir: dir, files, sections });
  const e = issues.find((i) => i.path === '/notifications/webhooks/0/url');
  assert.ok(e, JSON.stringify(issues));
  assert.equal(e.file, '.basin/schedules.yml');
  assert.equal(e.line, 5);
});

test('cron presets and expressions are accepted; garbage is refused', () => {
  const dir = project({
    '.basin/project.yml': MINIMAL,
    '.basin/schedules.yml': `schedules:\n  - {name: a, cron: every_15m, sources: [x]}\n  - {name: b, cron: "*/5 1-3 * * MON-FRI", sources: [x]}\n  - {name: c, cron: "every tuesday", sources: [x]}\n`,
  });
  const { issues } = loadConfig({ projectDir: dir, files, sections });
  const errs = issues.filter((i) => i.severity === 'error');
  assert.deepEqual(errs.map((e) => e.path), ['/schedules/2/cron']);
});
