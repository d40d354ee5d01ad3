import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { buildProgram, CliExit } from '@basin/core';
import sourcesPlugin from '@basin/plugin-sources';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import syncPlugin from '../src/index.js';

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (d) => (out += d));
  const program = buildProgram([sourcesPlugin, syncPlugin], { stdout, stderr: new PassThrough() });
  program.exitOverride();
  try {
    await program.parseAsync(args, { from: 'user' });
    return { code: 0, out, err: '' };
  } catch (e) {
    if (e instanceof CliExit) return { code: e.code, out, err: e.message };
    throw e;
  }
}

// issue 12 item 9: a source added while the server runs is known to it without a restart
describe('sources.yml changes reach the running server', () => {
  it('a source added with the CLI syncs through the running server; a bad edit keeps the running list and is reported', async () => {
    const dir = makeProject({
      'data/a/x.csv': 'id\n1\n',
      'data/big/y.csv': 'id\n1\n2\n3\n',
      '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: first\n    type: local_files\n    local_files:\n      directory: data/a\n',
    });
    disableAuth(dir);
    const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      let r = await cli(['source', 'add', '--name', 'big', '--type', 'local_files', '--set', 'directory=data/big', '--project', dir]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /The running server \(pid \d+\) has taken the new source in; no restart needed\./);
      r = await cli(['sync', 'big', '--project', dir]);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /big: succeeded - 3 rows/);

      // a bad edit: the running list stays, the problem is reported with the file
      const file = path.join(dir, '.basin/sources.yml');
      const good = fs.readFileSync(file, 'utf8');
      fs.writeFileSync(file, `${good}  - name: broken\n    type: local_filez\n`);
      const names = async () => ((await app.http.inject({ method: 'GET', url: '/api/sources' })).json() as Array<{ name: string }>).map((s) => s.name);
      assert.deepEqual(await names(), ['first', 'big']);
      const h = (await app.health()) as { sources_config_error: { file: string; message: string } | null };
      assert.match(h.sources_config_error?.file ?? '', /sources\.yml$/);
      assert.match(h.sources_config_error?.message ?? '', /unknown source type "local_filez"; did you mean local_files\?/);
      const res = await app.http.inject({ method: 'POST', url: '/api/sources/first/sync', payload: {}, headers: { 'x-requested-with': 'XMLHttpRequest' } });
      assert.equal(res.statusCode, 202, res.body);
      // fixed: taken in, the error cleared
      fs.writeFileSync(file, good.replace('name: first', 'name: renamed'));
      assert.deepEqual(await names(), ['renamed', 'big']);
      assert.equal(((await app.health()) as { sources_config_error: unknown }).sources_config_error, null);
    } finally {
      await app.close();
    }
  });
});
