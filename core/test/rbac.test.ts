import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CORE_PERMISSIONS, grantedFrom, loadPlugins, PermissionRegistry } from '../src/index.js';

test('core declares no permission; the bundled plugins declare the SPEC matrix: 29, editor 19, viewer 8, admin all', async () => {
  assert.deepEqual(new PermissionRegistry().all(), []);
  const r = new PermissionRegistry();
  // permissions beyond SPEC's matrix (initial_sync.run) are marked and left out of the count
  for (const p of await loadPlugins()) for (const perm of p.permissions ?? []) if (!perm.beyondSpec) r.add(perm, p.name);
  assert.equal(CORE_PERMISSIONS.length, 29);
  assert.equal(r.forRole('admin').length, 29);
  assert.equal(r.forRole('editor').length, 19);
  assert.equal(r.forRole('viewer').length, 8);
  assert.deepEqual(r.forRole('viewer'), ['dashboard.view', 'governance.view', 'health.view', 'logs.view', 'notebooks.view', 'scheduler.view', 'source.view', 'tx.view']);
  assert.equal(r.roleHas('editor', 'notebooks.manage'), true);
  assert.equal(r.roleHas('editor', 'source.view_credentials'), false);
});

test('plugin permissions are added, admin always gets them, malformed names and conflicting redeclarations are refused', () => {
  const r = new PermissionRegistry([{ name: 'source.view', roles: grantedFrom.viewer }]);
  r.add({ name: 'greeter.greet', roles: ['viewer'] }, 'test');
  assert.equal(r.roleHas('admin', 'greeter.greet'), true);
  assert.equal(r.roleHas('editor', 'greeter.greet'), false);
  assert.throws(() => r.add({ name: 'NoDot', roles: [] }, 'test'), /<domain>\.<action>/);
  r.add({ name: 'source.view', roles: grantedFrom.viewer }, 'another user of the same permission');
  assert.throws(() => r.add({ name: 'source.view', roles: ['admin'] }, 'test'), /conflicts/);
});
