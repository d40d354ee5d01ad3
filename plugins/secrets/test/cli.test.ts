// basin secrets set|list|unset from the host: the value comes from stdin (never argv) and is never printed.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import dotenv from 'dotenv';
import { makeProject } from '@basin/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const basin = (args: string[], input?: string) =>
  spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), ...args], { cwd: root, input, encoding: 'utf8', env: { ...process.env, BASIN_DEV: '1' } });

test('set reads stdin, list masks, unset removes; bad names fail with a clear message', () => {
  const dir = makeProject({ '.env': '# mine\nA=1\n' });
  const set = basin(['secrets', 'set', 'HUBSPOT_TOKEN', '--project', dir], 'pat-na1-secret value\n');
  assert.equal(set.status, 0, set.stderr);
  assert.match(set.stdout, /Added HUBSPOT_TOKEN/);
  assert.deepEqual(dotenv.parse(fs.readFileSync(path.join(dir, '.env'))), { A: '1', HUBSPOT_TOKEN: 'pat-na1-secret value' });
  assert.ok(fs.readFileSync(path.join(dir, '.env'), 'utf8').startsWith('# mine\nA=1\n'));

  const list = basin(['secrets', 'list', '--project', dir]);
  assert.equal(list.status, 0, list.stderr);
  assert.match(list.stdout, /HUBSPOT_TOKEN\t\*{8}/);
  for (const r of [set, list]) assert.ok(!`${r.stdout}${r.stderr}`.includes('pat-na1'));

  const bad = basin(['secrets', 'set', '9BAD', '--project', dir], 'v');
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /not a variable name/);
  const empty = basin(['secrets', 'set', 'EMPTY', '--project', dir], '');
  assert.equal(empty.status, 1);
  assert.match(empty.stderr, /no value on standard input/);

  const unset = basin(['secrets', 'unset', 'HUBSPOT_TOKEN', '--project', dir]);
  assert.equal(unset.status, 0, unset.stderr);
  assert.deepEqual(dotenv.parse(fs.readFileSync(path.join(dir, '.env'))), { A: '1' });
  assert.equal(basin(['secrets', 'unset', 'HUBSPOT_TOKEN', '--project', dir]).status, 1);
});

test('with a server running (holding the warehouse), the commands go through it with BASIN_API_KEY and it audits the key user', async () => {
  const { bootSecrets } = await import('./helpers.js');
  const { writeServerInfo } = await import('@basin/core');
  const t = await bootSecrets({ '.env': 'A=1\n' });
  try {
    const url = (await t.app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
    writeServerInfo(t.dir, { pid: process.pid, url, started_at: new Date().toISOString() });
    const run = (args: string[], input: string | undefined, key: string | undefined) =>
      new Promise<{ status: number; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), ...args, '--project', t.dir], { cwd: root, env: { ...process.env, BASIN_DEV: '1', BASIN_API_KEY: key ?? '' } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += String(d)));
        child.stderr.on('data', (d) => (stderr += String(d)));
        child.on('close', (code) => resolve({ status: code ?? 1, stdout, stderr }));
        child.stdin.end(input ?? '');
      });
    const set = await run(['secrets', 'set', 'LIVE'], 'live-value-123', t.keys.admin);
    assert.equal(set.status, 0, set.stderr);
    assert.equal(t.app.config.env('LIVE'), 'live-value-123');
    const list = await run(['secrets', 'list'], undefined, t.keys.admin);
    assert.match(list.stdout, /LIVE\t\*{8}/);
    const editor = await run(['secrets', 'unset', 'LIVE'], undefined, t.keys.editor);
    assert.equal(editor.status, 1);
    assert.match(editor.stderr, /refused the request; set BASIN_API_KEY to an admin API key/);
    const unset = await run(['secrets', 'unset', 'LIVE'], undefined, t.keys.admin);
    assert.equal(unset.status, 0, unset.stderr);
    assert.equal(t.app.config.env('LIVE'), undefined);
    assert.ok(t.auth.audit.list(50, 0).items.some((i) => i.action === 'secret.set' && i.target === 'LIVE' && i.actor_email === 'admin@example.com'));
  } finally {
    await t.app.close();
  }
});
