// Fast tests without dbt: the process wrapper's timeout kill (a stand-in executable that hangs),
// dbt log parsing, staging checksums, and the coalescing window.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { tempDir } from '@basin/test';
import { AutoRunCoalescer } from '../src/auto-run.js';
import { parseDbtLogLine } from '../src/dbt-log.js';
import { runDbt } from '../src/dbt-process.js';
import { stagingSql } from '../src/staging.js';
import { manualTimer } from './fixtures/project.js';

test('a dbt that outlives the timeout is killed with its process group', async () => {
  const dir = tempDir();
  const fake = path.join(dir, 'dbt');
  const pidFile = path.join(dir, 'child.pid');
  // prints one JSON log line, starts a grandchild, then hangs
  fs.writeFileSync(fake, `#!/bin/sh\necho '{"info":{"name":"MainReportVersion","level":"info","msg":"Running with dbt=fake"},"data":{}}'\nsleep 300 &\necho $! > ${pidFile}\nwait\n`, { mode: 0o755 });
  const lines: string[] = [];
  const exit = await runDbt({ dbt: fake, projectDir: dir, args: ['run'], dbPath: path.join(dir, 'w.db'), timeoutMs: 1500, onLine: (l) => lines.push(l.msg) });
  assert.equal(exit.stopped, 'timeout');
  assert.deepEqual(lines, ['Running with dbt=fake']);
  const grandchild = Number(fs.readFileSync(pidFile, 'utf8'));
  // gone, or a zombie waiting for a reaper (containers' PID 1 may not reap orphans)
  const state = () => {
    try {
      return fs.readFileSync(`/proc/${grandchild}/stat`, 'utf8').split(') ')[1]![0];
    } catch {
      return 'gone';
    }
  };
  for (let i = 0; i < 50 && !['gone', 'Z'].includes(state()!); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(['gone', 'Z'].includes(state()!), `the grandchild is not running (state ${state()})`);
});

test('an aborted signal stops dbt as cancelled', async () => {
  const dir = tempDir();
  const fake = path.join(dir, 'dbt');
  fs.writeFileSync(fake, '#!/bin/sh\nexec sleep 300\n', { mode: 0o755 });
  const ac = new AbortController();
  const p = runDbt({ dbt: fake, projectDir: dir, args: ['run'], dbPath: 'x', timeoutMs: 60_000, signal: ac.signal });
  ac.abort();
  assert.equal((await p).stopped, 'cancelled');
});

test('NodeFinished lines carry the node and its error message; non-JSON lines are ignored', () => {
  const l = parseDbtLogLine(
    JSON.stringify({
      info: { name: 'NodeFinished', level: 'debug', msg: '' },
      data: { node_info: { unique_id: 'model.p.broken', node_name: 'broken', resource_type: 'model', node_status: 'error' }, run_result: { status: 'error', message: 'Catalog Error: nope', execution_time: 0.2 } },
    }),
  )!;
  assert.deepEqual(l.node, { uniqueId: 'model.p.broken', name: 'broken', resourceType: 'model', status: 'error' });
  assert.deepEqual(l.result, { status: 'error', message: 'Catalog Error: nope', executionTime: 0.2 });
  assert.equal(parseDbtLogLine('Traceback (most recent call last):'), null);
  assert.equal(parseDbtLogLine('{not json'), null);
});

test('generated staging SQL quotes odd names safely and its checksum covers the body', () => {
  const sql = stagingSql("o'brien", 'orders', ['id', 'we"ird']);
  assert.match(sql, /source\('o\\'brien', 'orders'\)/);
  assert.match(sql, /"we""ird"/);
  assert.match(sql, /^-- basin:generated checksum=[0-9a-f]{16}\n/);
  assert.notEqual(stagingSql('s', 't', ['a']).split('\n')[0], stagingSql('s', 't', ['b']).split('\n')[0]);
});

test('syncs inside the window coalesce into one run; the window is fixed from the first sync', async () => {
  const t = manualTimer();
  const runs: any[] = [];
  const co = new AutoRunCoalescer({
    run: async (o) => (runs.push(o), { id: 'r' } as any),
    coalesceSeconds: () => 10,
    attentionSources: async () => new Set(['b']),
    timer: () => t.timer,
    log: { warn() {} } as any,
  });
  co.request('a');
  co.request('b', { schedule: 'nightly' });
  co.request('a');
  assert.equal(t.scheduled.length, 1);
  assert.equal(t.scheduled[0]!.ms, 10_000);
  t.scheduled[0]!.fn();
  await new Promise((r) => setImmediate(r));
  assert.equal(runs.length, 1);
  assert.deepEqual(runs[0].excludeSources, ['b']);
  assert.equal(runs[0].schedule, 'nightly');
  co.request('c');
  assert.equal(t.scheduled.length, 2, 'a sync after the run opens a new window');
});
