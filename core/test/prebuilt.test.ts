// core/src/plugin/prebuilt.ts: the install's prebuilt plugins bundle is used only while every built
// file it lists is the one in its folder now; anything else says why and leaves the ES modules.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { tempDir } from '@basin/test';
import { openPrebuilt } from '../src/plugin/prebuilt.js';

/** an install root with one built plugin (p/dist) and a bundle of it (rt/plugins.cjs + its manifest) */
function install(): { root: string; entry: string; manifest: string } {
  const root = tempDir();
  fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ workspaces: [], basin: { prebuilt_plugins: 'rt/plugins.cjs' } }));
  const dist = path.join(root, 'p', 'dist');
  fs.mkdirSync(dist, { recursive: true });
  const entry = path.join(dist, 'index.js');
  fs.writeFileSync(entry, 'export default { name: "p" };\n');
  fs.writeFileSync(path.join(dist, 'index.js.map'), '{}');
  fs.mkdirSync(path.join(root, 'rt'));
  fs.writeFileSync(path.join(root, 'rt', 'plugins.cjs'), 'module.exports = { "@x/plugin-p": () => ({ default: { name: "p", from: "bundle" } }) };\n');
  const data = fs.readFileSync(entry);
  const manifest = path.join(root, 'rt', 'plugins.json');
  fs.writeFileSync(
    manifest,
    JSON.stringify({
      packages: { '@x/plugin-p': '../p/dist/index.js' },
      folders: ['../p/dist'],
      inputs: [{ file: '../p/dist/index.js', size: data.length, mtime_ms: fs.statSync(entry).mtimeMs, sha256: crypto.createHash('sha256').update(data).digest('hex') }],
    }),
  );
  return { root, entry, manifest };
}

const why = (root: string) => {
  const r = openPrebuilt(root);
  return 'why' in r ? r.why : null;
};

test('a bundle whose files are unchanged is loaded; one copied with other times too (compared by content)', () => {
  const { root, entry } = install();
  const r = openPrebuilt(root);
  assert.ok('loaded' in r, JSON.stringify(r));
  assert.deepEqual(r.loaded.modules['@x/plugin-p']!(), { default: { name: 'p', from: 'bundle' } });
  assert.equal(path.join(r.loaded.dir, r.loaded.manifest.packages['@x/plugin-p']!), entry);
  // a build restored from a cache: the same bytes, a new modification time
  const later = new Date(Date.now() + 60_000);
  fs.utimesSync(entry, later, later);
  assert.equal(why(root), null);
});

test('an edited, removed or added built file, a missing manifest or no bundle: the ES modules, with the reason', () => {
  let i = install();
  // same size, other bytes, other time
  fs.writeFileSync(i.entry, 'export default { name: "q" };\n');
  assert.match(why(i.root)!, /p\/dist\/index\.js changed; "npm run build" builds it again/);

  i = install();
  fs.writeFileSync(path.join(path.dirname(i.entry), 'chunk-NEW.js'), 'export const x = 1;\n');
  assert.match(why(i.root)!, /chunk-NEW\.js is new/);

  i = install();
  fs.rmSync(i.entry);
  assert.match(why(i.root)!, /index\.js is gone/);

  i = install();
  fs.rmSync(i.manifest);
  assert.equal(why(i.root), 'rt/plugins.cjs is not built');

  i = install();
  fs.writeFileSync(path.join(i.root, 'package.json'), JSON.stringify({ workspaces: [] }));
  assert.equal(why(i.root), 'the install has no prebuilt plugins');

  i = install();
  fs.writeFileSync(path.join(i.root, 'rt', 'plugins.cjs'), 'throw new Error("broken bundle");\n');
  assert.match(why(i.root)!, /rt\/plugins\.cjs did not load: broken bundle/);
});
