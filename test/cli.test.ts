import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeProject, runCliCaptured, tempDir } from '@basin/test';

// stdout and stderr together, as a person at the shell reads them
const cli = async (args: string[]) => {
  const r = await runCliCaptured(args);
  return { code: r.code, out: r.all };
};

test('basin init creates a complete project and refuses to overwrite it', async () => {
  const dir = path.join(tempDir(), 'acme');
  const r = await cli(['init', dir, '--yes', '--name', 'acme']);
  assert.equal(r.code, 0, r.out);
  // the next steps, in the order a new user needs them
  const steps = ['basin source add', 'basin config validate', 'basin sync', 'basin start', 'basin keys create'].map((s) => r.out.indexOf(s));
  assert.ok(steps.every((i, n) => i >= 0 && (n === 0 || i > steps[n - 1]!)), r.out);
  for (const f of ['.basin/project.yml', '.basin/sources.yml', '.basin/schedules.yml', 'tx/dbt_project.yml', 'tx/profiles.yml', 'tx/models/staging', 'tx/models/intermediate', 'tx/models/marts', 'data/uploads', '.env', '.gitignore']) {
    assert.ok(fs.existsSync(path.join(dir, f)), f);
  }
  const yml = fs.readFileSync(path.join(dir, '.basin/project.yml'), 'utf8');
  assert.match(yml, /basin_version: "\d+\.\d+\.\d+"/);
  assert.match(yml, /created: "\d{4}-\d\d-\d\dT/);
  assert.match(fs.readFileSync(path.join(dir, '.basin/sources.yml'), 'utf8'), /version: "1.0"/);
  const gi = fs.readFileSync(path.join(dir, '.gitignore'), 'utf8');
  for (const s of ['.env', '.ingest/secrets.toml', '.basin/bi.yml']) assert.ok(gi.includes(s), s);
  assert.equal(fs.statSync(path.join(dir, '.env')).mode & 0o777, 0o600);
  const again = await cli(['init', dir, '--yes']);
  assert.equal(again.code, 1);
  assert.match(again.out, /already exists/);
});

test('basin config validate exits 0 on a valid project and 1 listing every problem', async () => {
  const dir = makeProject();
  assert.equal((await cli(['config', 'validate', '--project', dir])).code, 0);
  fs.writeFileSync(path.join(dir, '.basin/sources.yml'), 'version: "1.0"\nsources:\n  - name: a\n    type: local_filez\n  - name: b\n    type: csv\n    lookback: 2\n');
  const r = await cli(['config', 'validate', '--project', dir]);
  assert.equal(r.code, 1);
  assert.match(r.out, /sources\.yml:4:11 sources\[0\]\.type: unknown source type "local_filez"; did you mean local_files\?/);
  assert.match(r.out, /sources\.yml:7:5 sources\[1\]\.lookback: unknown key "lookback"; did you mean lookback_days\?/);
});

test('basin start with invalid config exits 2 and lists all errors', async () => {
  const dir = makeProject();
  fs.writeFileSync(path.join(dir, '.basin/sources.yml'), 'version: "1.0"\nsources:\n  - name: Bad Name\n    type: nope\n');
  const r = await cli(['start', '--project', dir, '--port', '0']);
  assert.equal(r.code, 2);
  assert.match(r.out, /configuration is invalid/);
  assert.match(r.out, /sources\[0\]\.name/);
  assert.match(r.out, /sources\[0\]\.type/);
});

test('basin --help lists the commands', async () => {
  const r = await cli(['--help']);
  assert.equal(r.code, 0);
  for (const c of ['init', 'start', 'config']) assert.match(r.out, new RegExp(`\\b${c}\\b`));
});

test('the demo project ignores everything `basin init` ignores (a server killed on the demo left .basin/basin.lock untracked)', async () => {
  const { GITIGNORE } = await import('../plugins/cli/src/scaffold.js');
  const demo = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'examples', 'demo', '.gitignore'), 'utf8').split('\n');
  const missing = GITIGNORE.split('\n').filter((l) => l && !l.startsWith('#') && !demo.includes(l));
  assert.deepEqual(missing, []);
});
