import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { formatIssue, validateProject } from '@basin/core';
import { makeProject } from '@basin/test';

const write = (dir: string, rel: string, text: string) => fs.writeFileSync(path.join(dir, rel), text);

test('a typo in a source field is reported with file, line, column and a suggestion', async () => {
  const dir = makeProject();
  write(dir, '.basin/sources.yml', `version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    lookback_day: 3\n    local_files:\n      directory: data/uploads\n`);
  const issues = await validateProject(dir);
  const e = issues.find((i) => i.path === '/sources/0/lookback_day');
  assert.ok(e, JSON.stringify(issues));
  assert.equal(e.file, '.basin/sources.yml');
  assert.equal(e.line, 5);
  assert.equal(e.column, 5);
  assert.equal(e.suggestion, 'lookback_days');
  assert.match(formatIssue(e), /^error: \.basin\/sources\.yml:5:5 sources\[0\]\.lookback_day: unknown key "lookback_day"; did you mean lookback_days\?/);
});

test('malformed YAML is reported with its line number', async () => {
  const dir = makeProject();
  write(dir, '.basin/schedules.yml', `schedules:\n  - name: a\n    cron: "0 * * * *\n  - name: b\n`);
  const issues = await validateProject(dir);
  const e = issues.find((i) => i.file === '.basin/schedules.yml');
  assert.ok(e, JSON.stringify(issues));
  assert.match(e.message, /invalid YAML/);
  assert.ok(e.line && e.line >= 3, `line ${e.line}`);
});

test('every problem is listed, not just the first, across files', async () => {
  const dir = makeProject();
  write(dir, '.basin/sources.yml', `version: "1.0"\nsources:\n  - name: Bad-Name\n    type: local_files\n  - name: b\n    type: nope_type\n`);
  write(dir, '.basin/project.yml', fs.readFileSync(path.join(dir, '.basin/project.yml'), 'utf8').replace('port: 8800', 'port: "eighty"').replace('auth:\n', 'plaform: {}\nauth:\n'));
  const issues = (await validateProject(dir)).filter((i) => i.severity === 'error');
  const paths = issues.map((i) => `${i.file}${i.path}`);
  assert.ok(paths.includes('.basin/sources.yml/sources/0/name'), paths.join('\n'));
  assert.ok(paths.includes('.basin/sources.yml/sources/1/type'), paths.join('\n'));
  assert.ok(paths.includes('.basin/project.yml/platform/port'), paths.join('\n'));
  const section = issues.find((i) => i.path === '/plaform');
  assert.equal(section?.suggestion, 'platform');
});

test('a broken sensitive file never echoes its content in the error', async () => {
  const dir = makeProject();
  write(dir, '.ingest/secrets.toml', `[sources.shop]\napi_key = "sk_live_SUPERSECRET\n`);
  const issues = await validateProject(dir);
  const e = issues.find((i) => i.file === '.ingest/secrets.toml');
  assert.ok(e);
  assert.doesNotMatch(JSON.stringify(issues), /SUPERSECRET/);
  assert.doesNotMatch(formatIssue(e), /SUPERSECRET/);
});

test('a freshly initialised project is valid', async () => {
  const issues = await validateProject(makeProject());
  assert.deepEqual(issues.filter((i) => i.severity === 'error'), []);
});
