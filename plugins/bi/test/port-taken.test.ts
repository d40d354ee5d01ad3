import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { httpCall } from '@basin/core';
import { tempDir } from '@basin/test';
import { SupersetSupervisor } from '../src/supervisor.js';
import { freePort } from '../../../test/support/server-process.js';
import { fakeSupersetSupervisor, fakeSupersetVenv } from './fake-superset.js';

const logs: string[] = [];
const log = {
  info: () => {},
  debug: () => {},
  error: (o: unknown, m?: string) => logs.push(`error ${m ?? ''} ${JSON.stringify(o)}`),
  warn: (o: unknown, m?: string) => logs.push(`warn ${m ?? ''} ${JSON.stringify(o)}`),
  child: () => log,
};

/** a supervisor of the fake venv with `configured` as platform.bi_port */
const supervisorOn = (dir: string, venvDir: string, configured: number): SupersetSupervisor => fakeSupersetSupervisor(dir, venvDir, configured, log);

const health = async (port: number) => (await httpCall(`http://127.0.0.1:${port}/bi/health`, { method: 'GET', timeoutMs: 2000 })).status;

test('Superset starts on the next free port when another program holds platform.bi_port, and `port` says where', async () => {
  const dir = tempDir();
  const venvDir = fakeSupersetVenv(dir);
  const configured = await freePort();
  // another program (another project's Superset, an orphan) on the configured port
  const other = net.createServer((s) => s.end()).listen(configured, '127.0.0.1');
  await new Promise((r) => other.once('listening', r));
  const supervisor = supervisorOn(dir, venvDir, configured);
  try {
    await supervisor.start();
    assert.equal(supervisor.current.state, 'running');
    assert.notEqual(supervisor.port, configured, 'not on the taken port');
    assert.ok(supervisor.port > configured && supervisor.port < configured + 20, `on a port after ${configured}: ${supervisor.port}`);
    assert.equal(await health(supervisor.port), 200, 'Superset answers where `port` says');
    assert.equal(supervisor.databaseId, 7);
    assert.ok(logs.some((l) => l.startsWith('warn') && l.includes(`port ${configured} (platform.bi_port) is taken`)), logs.join('\n'));
  } finally {
    await supervisor.stop();
    other.close();
  }
});

test('a port taken between the free-port check and the bind is left for the next one, though the other program answers the health probe', async () => {
  const dir = tempDir();
  const configured = await freePort();
  const venvDir = fakeSupersetVenv(dir, [configured]);
  const supervisor = supervisorOn(dir, venvDir, configured);
  try {
    await supervisor.start();
    assert.equal(supervisor.current.state, 'running');
    assert.equal(await health(configured), 200, 'the other program answered on the configured port all along');
    assert.ok(supervisor.port > configured, `moved past ${configured}: ${supervisor.port}`);
    assert.equal(supervisor.current.restarts, 0, 'a failed bind is not a crash');
    assert.equal(await health(supervisor.port), 200);
  } finally {
    await supervisor.stop();
    const squatter = path.join(venvDir, 'bin', 'squatter.pid');
    if (fs.existsSync(squatter)) process.kill(Number(fs.readFileSync(squatter, 'utf8')), 'SIGKILL');
  }
});
