import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findViolations, readWorkspace, type WorkspacePackage } from './support/architecture.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

test('packages meet only at their declared entries and contracts; no "as unknown as" in plugins and sources', () => {
  const { pkgs, files } = readWorkspace(root);
  assert.ok(pkgs.length > 20 && files.length > 200, 'the workspace was read');
  assert.deepEqual(findViolations(pkgs, files), []);
});

test('the check catches internals, undeclared imports, plugin-to-plugin main imports, source imports and casts', () => {
  const pkg = (name: string, dir: string, deps: string[] = [], exports = ['.']): WorkspacePackage => ({ name, dir, exports, dependencies: ['@basin/core', ...deps], devDependencies: [] });
  const pkgs = [
    pkg('@basin/core', 'core'),
    pkg('@basin/sdk', 'sdk'),
    pkg('@basin/plugin-sync', 'plugins/sync', [], ['.', './contract']),
    pkg('@basin/plugin-gov', 'plugins/gov', ['@basin/plugin-sync']),
    pkg('@basin/source-x', 'sources/x', ['@basin/sdk']),
  ];
  const found = findViolations(pkgs, [
    { file: 'plugins/gov/src/ok.ts', text: "import { syncEngineRef } from '@basin/plugin-sync/contract';\nimport type { X } from './x.js';" },
    { file: 'plugins/gov/src/deep.ts', text: "import { LoadSession } from '@basin/plugin-sync/src/loader.js';" },
    { file: 'plugins/gov/src/relative.ts', text: "import { SyncStore } from '../../sync/src/store.js';" },
    { file: 'plugins/gov/src/main.ts', text: "import type { SyncEngine } from '@basin/plugin-sync';" },
    { file: 'plugins/sync/src/undeclared.ts', text: "const m = await import('@basin/plugin-gov');" },
    { file: 'sources/x/src/index.ts', text: "import { Warehouse } from '@basin/core';" },
    { file: 'plugins/gov/src/cast.ts', text: 'const p = e as unknown as { source: string };' },
    { file: 'plugins/gov/test/deep.test.ts', text: "import { SyncEngineImpl } from '@basin/plugin-sync/src/engine.js';" },
  ]);
  const at = (f: string) => found.filter((v) => v.startsWith(`${f}:`));
  assert.deepEqual(at('plugins/gov/src/ok.ts'), []);
  assert.match(at('plugins/gov/src/deep.ts').join(), /does not export/);
  assert.match(at('plugins/gov/src/relative.ts').join(), /a file of another package/);
  assert.match(at('plugins/gov/src/main.ts').join(), /only through its contract/);
  assert.match(at('plugins/sync/src/undeclared.ts').join(), /does not declare/);
  assert.match(at('sources/x/src/index.ts').join(), /depends on @basin\/sdk only/);
  assert.match(at('plugins/gov/src/cast.ts').join(), /as unknown as/);
  assert.match(at('plugins/gov/test/deep.test.ts').join(), /does not export/);
});
