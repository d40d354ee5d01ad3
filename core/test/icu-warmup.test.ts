import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { warmIcu } from '../src/icu-warmup.js';

const here = path.dirname(fileURLToPath(import.meta.url));

test('warmIcu: one thread per process, a promise that resolves', async () => {
  const first = warmIcu();
  assert.equal(warmIcu(), first);
  // the thread never keeps the process alive: a timer does, while this test waits
  const alive = setInterval(() => {}, 1000);
  await first;
  clearInterval(alive);
});

test('warmIcu: the main thread formats dates while and after the thread loads ICU', () => {
  // racing the thread for ICU's first load, then after it; the process exits on its own (the thread is unref'd)
  const script = `
    import { warmIcu } from ${JSON.stringify(path.join(here, '../src/icu-warmup.ts'))};
    const alive = setInterval(() => {}, 1000);
    const done = warmIcu();
    const during = new Intl.DateTimeFormat('en-US', { timeZone: 'Europe/Berlin', hour: 'numeric', hourCycle: 'h23' }).format(new Date('2026-01-01T12:00:00Z'));
    await done;
    clearInterval(alive);
    const after = new Intl.NumberFormat('en-US').format(1234567);
    console.log(JSON.stringify({ during, after }));
  `;
  const r = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: here, encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout.trim()), { during: '13', after: '1,234,567' });
});
