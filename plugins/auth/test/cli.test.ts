import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeProject, disableAuth } from '@basin/test';
import { openCliService } from '../src/cli.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const basin = (args: string[], input?: string) =>
  spawnSync(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    env: { ...process.env, BASIN_DEV: '1' },
  });

test('basin users add/list/unlock/recover-admin and auth enable/status work on auth.db directly', () => {
  const dir = makeProject();
  disableAuth(dir);
  const en = basin(['auth', 'enable', '--project', dir]);
  assert.equal(en.status, 0, en.stderr);
  assert.match(en.stdout, /enabled/);

  const add = basin(['users', 'add', 'Root@Example.com', '--role', 'admin', '--password-stdin', '--project', dir], 'a strong admin passphrase\n');
  assert.equal(add.status, 0, add.stderr);
  const weak = basin(['users', 'add', 'weak@example.com', '--role', 'viewer', '--password-stdin', '--project', dir], 'password\n');
  assert.equal(weak.status, 1);
  assert.match(weak.stderr, /at least 8|too common/);
  const inv = basin(['users', 'add', 'v@example.com', '--role', 'viewer', '--project', dir]);
  assert.match(inv.stdout, /\/invite\/[A-Za-z0-9_-]{43}/);
  assert.equal(basin(['users', 'add', 'x@example.com', '--role', 'boss', '--project', dir]).status, 1);

  const list = JSON.parse(basin(['users', 'list', '--json', '--project', dir]).stdout);
  assert.deepEqual(list.map((u: { email: string; role: string; status: string }) => [u.email, u.role, u.status]), [
    ['root@example.com', 'admin', 'active'],
    ['v@example.com', 'viewer', 'invited'],
  ]);

  // lock the admin out from one address, then unlock from the host
  const svc = openCliService(dir);
  for (let i = 0; i < 5; i++) svc.lockout.recordFailure('10.0.0.1', 'root@example.com');
  assert.ok(svc.lockout.lockedFor('10.0.0.1', 'root@example.com') > 0);
  const st = JSON.parse(basin(['auth', 'status', '--json', '--project', dir]).stdout);
  assert.equal(st.enabled, true);
  assert.deepEqual(st.locked_emails, ['root@example.com']);
  const un = basin(['users', 'unlock', 'root@example.com', '--project', dir]);
  assert.match(un.stdout, /Unlocked/);
  assert.equal(svc.lockout.lockedFor('10.0.0.1', 'root@example.com'), 0);

  const rec = basin(['users', 'recover-admin', 'root@example.com', '--project', dir]);
  assert.equal(rec.status, 0, rec.stderr);
  const temp = rec.stdout.trim().split('\n').at(-1)!;
  assert.equal(temp.length, 20);
  const u = svc.users.byEmail('root@example.com')!;
  assert.equal(u.must_change_password, 1);
  assert.equal(u.totp_enabled, 0);
  assert.equal(svc.audit.list(10, 0, 'user.recover_admin').total, 1);
  assert.equal(basin(['users', 'recover-admin', 'v@example.com', '--project', dir]).status, 1, 'only admins');
  svc.db.close();
});

test('basin keys create/list/revoke: the printed key works against the server until it is revoked', async () => {
  const { bootApp } = await import('@basin/test');
  const authPlugin = (await import('../src/index.js')).default;
  const dir = makeProject();
  // no user yet: create says what to do
  const none = basin(['keys', 'create', '--project', dir]);
  assert.equal(none.status, 1);
  assert.match(none.stderr, /no active user yet.*basin users add/);
  assert.equal(basin(['users', 'add', 'root@example.com', '--role', 'admin', '--password-stdin', '--project', dir], 'a strong admin passphrase\n').status, 0);
  assert.equal(basin(['keys', 'create', '--user', 'nobody@example.com', '--project', dir]).status, 1);
  assert.match(basin(['keys', 'create', '--expires', 'soon', '--project', dir]).stderr, /not a date/);

  const created = basin(['keys', 'create', '--name', 'laptop', '--project', dir]);
  assert.equal(created.status, 0, created.stderr);
  const key = /^(basin_ak_[A-Za-z0-9_-]{32})$/m.exec(created.stdout)?.[1];
  assert.ok(key, created.stdout);
  assert.match(created.stdout, /for root@example\.com \(admin\)/);

  const listed = JSON.parse(basin(['keys', 'list', '--json', '--project', dir]).stdout);
  assert.equal(listed.length, 1);
  assert.equal(listed[0].name, 'laptop');
  assert.ok(!JSON.stringify(listed).includes(key!), 'the list never shows the key');

  const app = await bootApp(dir, { plugins: [authPlugin] });
  try {
    const call = () => app.http.inject({ method: 'GET', url: '/api/admin/users', headers: { authorization: `Bearer ${key}` } });
    assert.equal((await call()).statusCode, 200);
    const rev = basin(['keys', 'revoke', `${listed[0].prefix}...`, '--project', dir]);
    assert.equal(rev.status, 0, rev.stderr);
    assert.match(rev.stdout, /Revoked API key/);
    assert.equal((await call()).statusCode, 401);
    assert.match(basin(['keys', 'revoke', listed[0].id, '--project', dir]).stdout, /already revoked/);
  } finally {
    await app.close();
  }
});
