import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tempDir } from '@basin/test';
import { freePort } from '../../../test/support/server-process.js';
import { fakeSupersetSupervisor, fakeSupersetVenv } from './fake-superset.js';

const log = { info: () => {}, debug: () => {}, error: () => {}, warn: () => {}, child: () => log };

// `basin start` launches Superset a moment after Basin listens (index.ts); until then the status says
// `starting`, not `stopped`, and a running or failed Superset is not relabelled
test('announceStart: stopped becomes starting until the launch; running and stopped again are left as they are', async () => {
  const dir = tempDir();
  const port = await freePort();
  const supervisor = fakeSupersetSupervisor(dir, fakeSupersetVenv(dir), port, log);
  try {
    assert.equal(supervisor.current.state, 'stopped');
    supervisor.announceStart();
    assert.equal(supervisor.current.state, 'starting');
    await supervisor.start();
    assert.equal(supervisor.current.state, 'running');
    supervisor.announceStart();
    assert.equal(supervisor.current.state, 'running');
  } finally {
    await supervisor.stop();
  }
  assert.equal(supervisor.current.state, 'stopped');
});
