import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pty from '@lydell/node-pty';
import { makeProject } from '@basin/test';
import { loadSourceRegistry, parseAnswer, sourceTypeGroups, wizardFields } from '../src/contract.js';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/basin.mjs');
const ARGS = ['--conditions=development', '--import', 'tsx', BIN, 'source', 'add'];
const ENV = { ...process.env, BASIN_DEV: '1', NO_COLOR: '1' };

/**
 * Drives `basin source add` through a pseudo-terminal: waits for each prompt, types the answer,
 * and returns everything the terminal showed. A step's `expect` is matched against output not yet consumed.
 */
function drive(dir: string, steps: Array<{ expect: RegExp; send: string }>, timeoutMs = 60_000): Promise<{ out: string; code: number }> {
  return new Promise((resolve, reject) => {
    const p = pty.spawn(process.execPath, [...ARGS, '--project', dir], { cols: 200, rows: 50, cwd: process.cwd(), env: ENV });
    let out = '';
    let from = 0;
    let step = 0;
    const timer = setTimeout(() => {
      p.kill();
      reject(new Error(`wizard stuck at step ${step} (${steps[step]?.expect}); output:\n${out}`));
    }, timeoutMs);
    const advance = () => {
      while (step < steps.length) {
        const m = steps[step]!.expect.exec(out.replace(/\r+\n/g, '\n').slice(from));
        if (!m) return;
        from += m.index + m[0].length;
        p.write(`${steps[step]!.send}\r`);
        step++;
      }
    };
    p.onData((d) => {
      out += d;
      advance();
    });
    p.onExit(({ exitCode }) => {
      clearTimeout(timer);
      resolve({ out: out.replace(/\r+\n/g, '\n'), code: exitCode });
    });
  });
}

describe('basin source add: the wizard', () => {
  let api: http.Server;
  let base = '';
  before(async () => {
    // a small paginated-free REST API with a bearer token
    api = http.createServer((req, res) => {
      if (req.headers.authorization !== 'Bearer tok-123/abc') {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
        return;
      }
      if (req.url?.startsWith('/v1/invoices')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id: 1, amount: 12.5, status: 'paid' }, { id: 2, amount: 7, status: 'open' }]));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  after(() => api.close());

  it('the schema walk: every implemented type by category; only the chosen auth type\'s settings; answers checked as typed', async () => {
    const registry = await loadSourceRegistry();
    const groups = sourceTypeGroups(registry.all());
    const listed = groups.flatMap((g) => g.types.map((t) => t.type));
    for (const d of registry.all()) assert.equal(listed.includes(d.type), d.implemented !== false, d.type);
    assert.equal(groups[0]!.category, 'files');
    const rest = registry.get('rest_api')!;
    const keys = (a: Record<string, unknown>) => wizardFields(rest, a).required.map((f) => f.key);
    assert.deepEqual(keys({}), ['base_url', 'endpoints', 'auth_type', 'auth_token_env']);
    assert.deepEqual(keys({ auth_type: 'basic' }), ['base_url', 'endpoints', 'auth_type', 'basic_username_env', 'basic_password_env']);
    assert.deepEqual(keys({ auth_type: 'none' }), ['base_url', 'endpoints', 'auth_type']);
    const base = wizardFields(rest, {}).required[0]!;
    assert.match(base.format, /URL starting with http:\/\/ or https:\/\/, e\.g\. https:\/\/api\.example\.com/);
    assert.match(parseAnswer(base, 'ftp://x').error ?? '', /pattern|match/i);
    assert.deepEqual(parseAnswer(base, 'https://a.example'), { value: 'https://a.example' });
    const auth = wizardFields(rest, {}).required.find((f) => f.key === 'auth_type')!;
    assert.deepEqual(parseAnswer(auth, '3'), { value: 'basic' });
    assert.match(parseAnswer(auth, 'token').error ?? '', /not one of/);
  });

  it('a rest_api source through a pseudo-terminal: mistakes ask again without losing answers, the secret is hidden and goes to .env', async () => {
    const dir = makeProject();
    const { out, code } = await drive(dir, [
      { expect: /Type \(number or name\): /, send: 'rest_api' },
      { expect: /Source name .*: /, send: 'Shop API' }, // a mistake
      { expect: /Source name .*: /, send: 'shop' },
      { expect: /base_url[^\n]*\n\s*\(a URL starting with http:\/\/ or https:\/\/, e\.g\. https:\/\/api\.example\.com\): /, send: 'ftp://example.com' }, // a mistake
      { expect: /Try again\.\n[\s\S]*?base_url[\s\S]*?: /, send: base },
      { expect: /endpoints 1 path[\s\S]*?: /, send: '/v1/invoices' },
      { expect: /endpoints 2 path[\s\S]*?Enter when done[\s\S]*?: /, send: '' },
      { expect: /auth_type[\s\S]*?Enter for bearer\): /, send: '' },
      { expect: /auth_token_env[\s\S]*?Enter for SHOP_AUTH_TOKEN\): /, send: '' },
      { expect: /SHOP_AUTH_TOKEN is not set\. Its value \(typing is hidden; Enter to set it later\): /, send: 'tok-123/abc' },
      { expect: /Write SHOP_AUTH_TOKEN to .*\.env .*\? \[Y\/n\] /, send: '' },
      { expect: /Optional settings: .*Set any\? \[y\/N\] /, send: '' },
      { expect: /Description \(optional, Enter to skip\): /, send: 'invoices API' },
    ]);
    assert.equal(code, 0, out);
    // the mistakes were explained and asked again, the earlier answers kept
    assert.match(out, /"Shop API" is not a valid name/);
    assert.match(out, /ftp:\/\/example\.com\n\s+Expected string to match '\^https\?:\/\/'[^\n]*Try again\.\nbase_url/);
    // only the chosen auth type's settings were asked
    for (const other of ['basic_username_env', 'client_id_env', 'access_token_url', 'auth_header_name', 'api_key_name']) assert.doesNotMatch(out, new RegExp(other));
    // the secret was not echoed, and is in .env only
    assert.doesNotMatch(out, /tok-123/);
    assert.match(fs.readFileSync(path.join(dir, '.env'), 'utf8'), /^SHOP_AUTH_TOKEN=tok-123\/abc$/m);
    assert.equal(fs.statSync(path.join(dir, '.env')).mode & 0o777, 0o600);
    const yml = fs.readFileSync(path.join(dir, '.basin/sources.yml'), 'utf8');
    assert.doesNotMatch(yml, /tok-123/);
    assert.match(yml, /- name: shop\n\s+type: rest_api\n\s+description: invoices API\n\s+rest_api:\n/);
    assert.match(yml, /auth_token_env: SHOP_AUTH_TOKEN/);
    assert.match(yml, /endpoints:\n\s+- path: \/v1\/invoices/);
    // the check ran and the first rows were shown before saving
    assert.match(out, /Check passed: 127\.0\.0\.1:\d+ answered 200 for \/v1\/invoices\./);
    assert.match(out, /First rows:\n\s+v1_invoices:\n\s+id\s+\| amount\s+\| status\s*\n\s+1\s+\| 12\.5\s+\| paid/);
    assert.match(out, /Added source "shop" \(rest_api\)/);
  });

  it('files: the folder is checked (a missing one is refused or created) and the matching files are listed; piped answers work too', () => {
    const dir = makeProject({ 'data/in/a.csv': 'id,v\n1,x\n2,y\n', 'data/in/notes.txt': 'x' });
    const r = spawnSync(process.execPath, [...ARGS, '--project', dir], {
      input: ['local_files', 'wiz', 'data/nope', 'n', '../outside', 'data/in', '', 'my desc', ''].join('\n'),
      env: ENV,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /\s+files\n\s+\d+\. csv/);
    assert.match(r.stdout, /does not exist\. Create it\? \[y\/N\]/);
    assert.match(r.stdout, /The folder data\/nope does not exist\. Try again\./);
    assert.match(r.stdout, /"\.\.\/outside" is outside the project/);
    assert.match(r.stdout, /1 file\(s\) match "\*":\n\s+a\.csv \(\d+ bytes\)/);
    assert.match(r.stdout, /First rows:\n\s+wiz:\n\s+id\s+\| v/);
    assert.match(r.stdout, /Added source "wiz" \(local_files\)/);
    assert.match(fs.readFileSync(path.join(dir, '.basin/sources.yml'), 'utf8'), /- name: wiz\n\s+type: local_files\n\s+description: my desc\n\s+local_files:\n\s+directory: data\/in/);
    assert.ok(!fs.existsSync(path.join(dir, 'data/nope')));
    // input ending early writes nothing
    const r2 = spawnSync(process.execPath, [...ARGS, '--project', dir], { input: 'local_files\n', env: ENV, encoding: 'utf8' });
    assert.equal(r2.status, 2);
    assert.match(r2.stderr, /input ended/);
  });
});
