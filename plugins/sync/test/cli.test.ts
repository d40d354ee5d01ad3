import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { buildProgram, CliExit, serverFile } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import syncPlugin from '../src/index.js';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const program = buildProgram([sourcesPlugin, syncPlugin], { stdout, stderr });
  program.exitOverride();
  let code = 0;
  try {
    await program.parseAsync(args, { from: 'user' });
  } catch (e) {
    if (e instanceof CliExit) {
      code = e.code;
      err += e.message;
    } else throw e;
  }
  return { code, out, err };
}

describe('basin source add / basin sync', () => {
  it('adds a validated source atomically, refuses bad ones, and syncs it with a progress report', async () => {
    const dir = makeProject({ 'data/in/a.csv': 'id,v\n1,x\n2,y\n' });
    disableAuth(dir);
    const file = path.join(dir, '.basin/sources.yml');
    let r = await cli(['source', 'add', '--name', 'drop', '--type', 'local_files', '--set', 'directory=data/in', '--set', 'file_pattern=*.csv', '--project', dir]);
    assert.equal(r.code, 0, r.err);
    assert.match(fs.readFileSync(file, 'utf8'), /name: drop\n\s+type: local_files\n\s+local_files:\n\s+directory: data\/in\n\s+file_pattern: "\*\.csv"/);
    const before = fs.readFileSync(file, 'utf8');
    r = await cli(['source', 'add', '--name', 'bad', '--type', 'local_files', '--set', 'diretcory=data/in', '--project', dir]);
    assert.equal(r.code, 2);
    assert.match(r.err, /diretcory/);
    r = await cli(['source', 'add', '--name', 'drop', '--type', 'local_files', '--set', 'directory=x', '--project', dir]);
    assert.equal(r.code, 2);
    assert.match(r.err, /already exists/);
    r = await cli(['source', 'add', '--name', 'Bad-Name', '--type', 'nope', '--project', dir]);
    assert.equal(r.code, 2);
    assert.match(r.err, /unknown source type "nope"/);
    assert.equal(fs.readFileSync(file, 'utf8'), before);

    r = await cli(['sync', 'drop', '--project', dir]);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /drop drop: 2 rows \(\d+ rows\/s\)/);
    assert.match(r.out, /drop: succeeded - 2 rows \(raw_drop\.drop \+2\)/);
    r = await cli(['sync', 'nope', '--project', dir]);
    assert.equal(r.code, 1);
    assert.match(r.err, /unknown source\(s\) nope/);
  });

  it('calls the running server instead of opening the warehouse; ignores a stale server file', async () => {
    const dir = makeProject({
      'data/in/a.csv': 'id\n1\n',
      '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: drop\n    type: local_files\n    local_files:\n      directory: data/in\n',
    });
    disableAuth(dir);
    // a stale file of a dead process: the CLI opens the project itself
    fs.writeFileSync(serverFile(dir), JSON.stringify({ pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:1', started_at: 'x' }));
    let r = await cli(['sync', '--project', dir]);
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.out, /server is running/);

    const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const info = JSON.parse(fs.readFileSync(serverFile(dir), 'utf8'));
      assert.equal(info.pid, process.pid);
      assert.equal(info.url, url);
      fs.writeFileSync(path.join(dir, 'data/in/b.csv'), 'id\n2\n3\n');
      r = await cli(['sync', 'drop', '--project', dir]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /server is running for this project/);
      assert.match(r.out, /drop: succeeded - 2 rows/);
      const rows = await app.warehouse.query<{ n: number }>('SELECT count(*)::INT AS n FROM raw_drop.drop');
      assert.equal(rows[0]!.n, 3);
    } finally {
      await app.close();
    }
    assert.equal(fs.existsSync(serverFile(dir)), false);
  });
});
