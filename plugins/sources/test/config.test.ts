import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, it } from 'node:test';
import { validateProject } from '@basin/core';
import { makeProject } from '@basin/test';
import sourcesPlugin from '../src/index.js';

const yml = (type: string, key: string, dir: string) => `version: "1.0"\nsources:\n  - name: ok\n    type: local_files\n    local_files:\n      directory: data/in\n  - name: bad\n    type: ${type}\n    ${type}:\n      ${key}: ${JSON.stringify(dir)}\n`;

// issue 12 item 10: a folder outside the project is refused by validation, with file, line and field
describe('sources.yml validation: file folders stay inside the project', () => {
  for (const dir of ['/etc', '../../etc', 'data/../../outside']) {
    it(`refuses local_files directory ${dir}`, async () => {
      const project = makeProject({ '.basin/sources.yml': yml('local_files', 'directory', dir) });
      const issues = (await validateProject(project, [sourcesPlugin])).filter((i) => i.severity === 'error');
      assert.equal(issues.length, 1, JSON.stringify(issues));
      const [i] = issues;
      assert.equal(i!.path, '/sources/1/local_files/directory');
      assert.match(i!.file, /sources\.yml$/);
      assert.equal(i!.line, 10);
      assert.match(i!.message, /is outside the project/);
    });
  }

  it('refuses a link inside the project that leads out of it, and accepts folders inside (existing or not) and a filesystem source anywhere', async () => {
    const project = makeProject({ '.basin/sources.yml': yml('csv', 'directory', 'data/escape') });
    fs.mkdirSync(path.join(project, 'data'), { recursive: true });
    fs.symlinkSync(os.tmpdir(), path.join(project, 'data/escape'));
    let issues = (await validateProject(project, [sourcesPlugin])).filter((i) => i.severity === 'error');
    assert.deepEqual(issues.map((i) => i.path), ['/sources/1/csv/directory']);
    fs.writeFileSync(path.join(project, '.basin/sources.yml'), yml('filesystem', 'bucket_url', '/srv/shared'));
    issues = (await validateProject(project, [sourcesPlugin])).filter((i) => i.severity === 'error');
    assert.deepEqual(issues, []);
    fs.writeFileSync(path.join(project, '.basin/sources.yml'), yml('local_files', 'directory', 'data/not/yet'));
    issues = (await validateProject(project, [sourcesPlugin])).filter((i) => i.severity === 'error');
    assert.deepEqual(issues, []);
  });
});
