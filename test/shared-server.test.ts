// The once-per-run shared servers (test/support/shared-server.ts, scripts/lib/shared-servers.mjs):
// two test processes asking at once get one server; the runner's stop ends it and removes its files.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { makeRunDir, stopSharedServers } from '../scripts/lib/shared-servers.mjs';

const support = path.join(path.dirname(fileURLToPath(import.meta.url)), 'support', 'shared-server.ts');

// a test process: asks for the "probe" server (a detached `sleep` with a folder) and prints what it got
const client = `
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const { sharedServer } = await import(${JSON.stringify(support)});
const info = await sharedServer('probe', async () => {
  await new Promise((r) => setTimeout(r, 300)); // a slow start, so the other process waits on the lock
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-probe-'));
  const child = spawn('sleep', ['300'], { detached: true, stdio: 'ignore' });
  child.unref();
  return { info: { pid: child.pid, dir }, processes: [{ pid: child.pid, group: true }], dirs: [dir] };
});
console.log(JSON.stringify(info));
`;

function runClient(runDir: string): Promise<{ pid: number; dir: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', client], { env: { ...process.env, BASIN_TEST_RUN_DIR: runDir }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!)) : reject(new Error(`client exited ${code}`))));
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('two test processes share one server, which outlives them until the run stops it', async () => {
  const runDir = makeRunDir();
  try {
    const [a, b] = await Promise.all([runClient(runDir), runClient(runDir)]);
    assert.equal(a.pid, b.pid, 'both processes got the same server');
    assert.ok(alive(a.pid), 'the server outlives the processes that asked for it');
    const later = await runClient(runDir);
    assert.equal(later.pid, a.pid, 'a later process reuses it');
    assert.deepEqual(await stopSharedServers(runDir), ['probe']);
    assert.equal(alive(a.pid), false);
    assert.equal(fs.existsSync(a.dir), false, 'its folder is removed');
    assert.equal(fs.existsSync(runDir), false, 'the run folder is removed');
  } finally {
    await stopSharedServers(runDir);
  }
});

test('a recorded server that died is started again', async () => {
  const runDir = makeRunDir();
  try {
    const first = await runClient(runDir);
    process.kill(-first.pid, 'SIGKILL');
    while (alive(first.pid)) await new Promise((r) => setTimeout(r, 20));
    const second = await runClient(runDir);
    assert.notEqual(second.pid, first.pid);
    assert.ok(alive(second.pid));
  } finally {
    await stopSharedServers(runDir);
  }
});
