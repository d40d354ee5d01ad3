// The admin CLI against real projects: every command's --help, then one real run of each without a
// server (the project opened by the command), then through a running server with auth on (its API,
// an API key or a stored login; --json equal to the API), then start --detach and stop.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { spawnSync } from 'node:child_process';
import { buildProgram, loadPlugins, runCli, type BasinApp } from '@basin/core';
import type { AuthService } from '@basin/plugin-auth/contract';
import { bootApp, disableAuth, makeProject, tempDir } from '@basin/test';

type Cmd = ReturnType<typeof buildProgram>;
const findCommand = (root: Cmd, p: string[]): Cmd | undefined => p.reduce<Cmd | undefined>((c, n) => c?.commands.find((x) => x.name() === n) as Cmd | undefined, root);

async function cli(args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number; out: string; err: string }> {
  const out = new PassThrough();
  const err = new PassThrough();
  const o: string[] = [];
  const e: string[] = [];
  out.on('data', (c) => o.push(String(c)));
  err.on('data', (c) => e.push(String(c)));
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    const code = await runCli(args, { stdout: out, stderr: err });
    return { code, out: o.join(''), err: e.join('') };
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
const ok = (r: { code: number; out: string; err: string }) => assert.equal(r.code, 0, `${r.out}\n${r.err}`);
const parse = (r: { code: number; out: string; err: string }) => {
  ok(r);
  return JSON.parse(r.out);
};

const SOURCES = 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/in\n';
const CSV = 'id,amount,email,ordered_at\n1,10.5,ann@example.com,2026-11-01\n2,20,bob@example.com,2026-11-02\n3,7.25,cy@example.com,2026-11-03\n';
const SCHEDULES = 'schedules:\n  - name: nightly # keep this comment\n    type: sync_only\n    cron: daily\n    sources: [shop]\nnotifications:\n  webhooks: []\n';
const MONITORS = 'enabled: true\nmonitors:\n  - name: revenue\n    source_table: raw_shop.shop\n    value_expression: sum(amount)\n    compare: rolling_7day_avg\n    alert_threshold: 1000\n';
const dir = makeProject({ '.basin/sources.yml': SOURCES, '.basin/schedules.yml': SCHEDULES, '.basin/monitors.yml': MONITORS, 'data/in/orders.csv': CSV, 'tx/seeds/regions.csv': 'code,name\nEU,Europe\nUS,United States\n' });
// dbt docs after every run would double each dbt call here; the commands do not need them
fs.appendFileSync(path.join(dir, '.basin/project.yml'), '\ntx:\n  docs_after_run: false\n');
const P = ['--project', dir];

/** the commands of issue 18, each with examples in its --help */
const ISSUE_COMMANDS = [
  'status', 'start', 'stop', 'logs', 'info', 'doctor', 'cleanup', 'completion', 'backup', 'restore', 'login', 'logout', 'mcp', 'query',
  'schedule list', 'schedule run', 'schedule history', 'schedule cancel', 'schedule enable', 'schedule disable',
  'monitor list', 'monitor run', 'governance pii', 'governance overrides', 'catalog search', 'catalog lineage', 'catalog profile',
  'model new', 'model list', 'model run', 'tx dev',
];

describe('every command', () => {
  it('has --help (exit 0), with examples on the commands of issue 18; usage errors exit 2', async () => {
    const program = buildProgram(await loadPlugins(), { stdout: new PassThrough(), stderr: new PassThrough() });
    const paths: string[][] = [];
    const walk = (c: Cmd, prefix: string[]) => {
      for (const s of c.commands) {
        if (s.name() === 'help') continue;
        paths.push([...prefix, s.name()]);
        walk(s as Cmd, [...prefix, s.name()]);
      }
    };
    walk(program, []);
    assert.ok(paths.length >= 50, `${paths.length} commands`);
    for (const p of paths) {
      const r = await cli([...p, '--help']);
      assert.equal(r.code, 0, `${p.join(' ')} --help: ${r.err}`);
      assert.match(r.out, /Usage: basin/, p.join(' '));
      // every command that does something (not a group like "schedule") shows examples
      const leaf = !program.commands.length || !findCommand(program, p)?.commands.length;
      if (leaf || ISSUE_COMMANDS.includes(p.join(' '))) assert.match(r.out, /Examples:\n {2}\$ /, `${p.join(' ')} has examples`);
    }
    for (const c of ISSUE_COMMANDS) assert.ok(paths.some((p) => p.join(' ') === c), `basin ${c} exists`);
    const top = await cli(['--help']);
    assert.match(top.out, /Exit codes: 0 ok, 1 the operation failed, 2 usage or configuration error/);
    assert.equal((await cli(['query'])).code, 2);
    assert.equal((await cli(['status', '--no-such-option'])).code, 2);
    assert.equal((await cli(['completion', 'tcsh'])).code, 2);
  });
});

describe('without a server: the command opens the project itself', () => {
  before(async () => ok(await cli(['sync', ...P])));

  it('status, info and logs (table and --json)', async () => {
    const s = parse(await cli(['status', '--json', ...P]));
    assert.equal(s.server, null);
    assert.equal(s.platform.status, 'ok');
    assert.deepEqual(s.sources.map((x: any) => [x.name, x.row_count]), [['shop', 3]]);
    assert.ok(s.attention.some((a: any) => a.source === 'shop' && a.reasons.includes('pii')));
    const t = await cli(['status', ...P]);
    ok(t);
    assert.match(t.out, /no server running/);
    assert.match(t.out, /NAME\s+TYPE\s+ENABLED\s+STATUS/);
    assert.doesNotMatch(t.out, /\x1b\[/, 'no colour without a terminal');
    const i = parse(await cli(['info', '--json', ...P]));
    assert.equal(i.project.sources, 1);
    assert.ok(i.plugins.includes('mcp'));
    assert.ok(i.project.warehouse.bytes > 0);
    const l = parse(await cli(['logs', '--json', ...P]));
    assert.ok(l.items.some((x: any) => x.source === 'shop' && /succeeded/.test(x.message)));
    assert.match((await cli(['logs', '-n', '5', ...P])).out, /shop sync succeeded/);
  });

  it('query prints a table, --json or --csv, and refuses a write (exit 1)', async () => {
    const sql = 'SELECT id, amount, email FROM raw_shop.shop ORDER BY id';
    const t = await cli(['query', sql, ...P]);
    ok(t);
    assert.match(t.out, /^id\s+amount\s+email\n1\s+10\.5\s+ann@example\.com/m);
    assert.match(t.out, /3 row\(s\)/);
    const j = parse(await cli(['query', sql, '--json', ...P]));
    assert.deepEqual(j.rows, [[1, 10.5, 'ann@example.com'], [2, 20, 'bob@example.com'], [3, 7.25, 'cy@example.com']]);
    const c = await cli(['query', 'SELECT id, \'a,"b\' AS s FROM raw_shop.shop ORDER BY id LIMIT 1', '--csv', ...P]);
    assert.equal(c.out, 'id,s\r\n1,"a,""b"\r\n');
    const w = await cli(['query', 'DELETE FROM raw_shop.shop', ...P]);
    assert.equal(w.code, 1);
    assert.match(w.err, /SELECT/);
    assert.equal(parse(await cli(['query', 'SELECT count(*)::INT AS n FROM raw_shop.shop', '--json', ...P])).rows[0][0], 3);
  });

  it('catalog search, lineage and profile; governance pii and overrides', async () => {
    const s = parse(await cli(['catalog', 'search', 'shop', '--json', ...P]));
    assert.ok(s.some((x: any) => x.name === 'shop.shop'));
    assert.match((await cli(['catalog', 'search', 'shop', ...P])).out, /KIND\s+LAYER\s+NAME/);
    const l = parse(await cli(['catalog', 'lineage', '--json', ...P]));
    assert.ok(l.nodes.length >= 1);
    const p = parse(await cli(['catalog', 'profile', 'shop.shop', '--json', ...P]));
    assert.equal(p.row_count, 3);
    assert.deepEqual(p.columns.find((c: any) => c.name === 'amount').distinct_count, 3);
    assert.match((await cli(['catalog', 'profile', 'shop.shop', ...P])).out, /NAME\s+TYPE\s+NULL %\s+DISTINCT/);
    const pii = parse(await cli(['governance', 'pii', '--json', ...P]));
    assert.ok(JSON.stringify(pii).includes('email'));
    assert.match((await cli(['governance', 'pii', ...P])).out, /email/);
    ok(await cli(['governance', 'overrides', ...P]));
  });

  it('monitor list and run', async () => {
    const l = parse(await cli(['monitor', 'list', '--json', ...P]));
    assert.deepEqual(l.monitors.map((m: any) => m.name), ['revenue']);
    const r = await cli(['monitor', 'run', ...P]);
    assert.ok(r.code === 0 || r.code === 1, r.err);
    assert.match(r.out, /revenue/);
    assert.equal(parse(await cli(['monitor', 'list', '--json', ...P])).monitors[0].latest.monitor, 'revenue');
  });

  it('schedule list, disable/enable (comments kept), run (the job runs here) and history', async () => {
    const l = parse(await cli(['schedule', 'list', '--json', ...P]));
    assert.equal(l[0].name, 'nightly');
    ok(await cli(['schedule', 'disable', 'nightly', ...P]));
    const yml = fs.readFileSync(path.join(dir, '.basin/schedules.yml'), 'utf8');
    assert.match(yml, /enabled: false/);
    assert.match(yml, /# keep this comment/);
    assert.equal(parse(await cli(['schedule', 'list', '--json', ...P]))[0].enabled, false);
    ok(await cli(['schedule', 'enable', 'nightly', ...P]));
    assert.equal(parse(await cli(['schedule', 'list', '--json', ...P]))[0].enabled, true);
    assert.equal((await cli(['schedule', 'enable', 'nope', ...P])).code, 1);
    const run = parse(await cli(['schedule', 'run', 'nightly', '--json', ...P]));
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    const h = parse(await cli(['schedule', 'history', 'nightly', '--json', ...P]));
    assert.equal(h.items[0].id, run.id);
    assert.match((await cli(['schedule', 'history', ...P])).out, /nightly\s+succeeded/);
    const c = await cli(['schedule', 'cancel', run.id, ...P]);
    assert.equal(c.code, 1);
    assert.match(c.err, /no Basin server is running/);
  });

  it('model new from a template, model list, model run; tx seed and snapshot; tx dev on a copy', async () => {
    const n = await cli(['model', 'new', 'fct_orders', '--from', 'shop.shop', '--materialized', 'table', ...P]);
    ok(n);
    const sql = fs.readFileSync(path.join(dir, 'tx/models/marts/fct_orders.sql'), 'utf8');
    assert.match(sql, /\{\{ source\('shop', 'shop'\) \}\}/);
    assert.equal((await cli(['model', 'new', 'fct_orders', ...P])).code, 1, 'never overwrites');
    assert.equal((await cli(['model', 'new', 'Bad-Name', ...P])).code, 2);
    ok(await cli(['model', 'run', 'fct_orders', ...P]));
    const models = parse(await cli(['model', 'list', '--json', ...P]));
    assert.equal(models.find((m: any) => m.name === 'fct_orders').last_run.status, 'success');
    assert.equal(parse(await cli(['query', 'SELECT count(*)::INT FROM main.fct_orders', '--json', ...P])).rows[0][0], 3);
    ok(await cli(['tx', 'seed', ...P]));
    assert.equal(parse(await cli(['query', 'SELECT count(*)::INT FROM main.regions', '--json', ...P])).rows[0][0], 2);
    ok(await cli(['tx', 'snapshot', ...P]));
    // a model built only on the dev copy never reaches production
    fs.writeFileSync(path.join(dir, 'tx/models/marts/dev_only.sql'), "select 42 as answer\n");
    const dev = await cli(['tx', 'dev', 'run', '--select', 'dev_only', ...P]);
    ok(dev);
    assert.match(dev.out, /production is not touched/);
    assert.ok(fs.existsSync(path.join(dir, 'data/dev/warehouse.db')));
    const prod = await cli(['query', 'SELECT * FROM main.dev_only', ...P]);
    assert.equal(prod.code, 1, 'dev_only is not in production');
    fs.rmSync(path.join(dir, 'tx/models/marts/dev_only.sql'));
  });

  it('cleanup lists and removes old logs and dbt artifacts, never data', async () => {
    const old = path.join(dir, '.basin/logs/old.log');
    fs.mkdirSync(path.dirname(old), { recursive: true });
    fs.writeFileSync(old, 'x');
    fs.utimesSync(old, new Date(Date.now() - 30 * 86_400_000), new Date(Date.now() - 30 * 86_400_000));
    const dry = parse(await cli(['cleanup', '--dry-run', '--json', ...P]));
    assert.ok(dry.removed.some((r: any) => r.path === '.basin/logs/old.log'));
    assert.ok(dry.removed.some((r: any) => r.path.startsWith('tx/target')));
    assert.ok(fs.existsSync(old));
    ok(await cli(['cleanup', ...P]));
    assert.ok(!fs.existsSync(old));
    assert.ok(fs.existsSync(path.join(dir, 'data/warehouse.db')));
    assert.ok(fs.existsSync(path.join(dir, 'tx/target/manifest.json')), 'the manifest the catalog reads stays');
  });

  it('completion scripts for bash (which completes), zsh and fish', async () => {
    const b = await cli(['completion', 'bash']);
    ok(b);
    const file = path.join(tempDir(), 'basin.bash');
    fs.writeFileSync(file, b.out);
    const r = spawnSync('bash', ['-c', `source ${file}; COMP_WORDS=(basin sched); COMP_CWORD=1; _basin; echo "\${COMPREPLY[*]}"; COMP_WORDS=(basin schedule di); COMP_CWORD=2; _basin; echo "\${COMPREPLY[*]}"`], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split('\n'), ['schedule', 'disable']);
    assert.match((await cli(['completion', 'zsh'])).out, /#compdef basin/);
    assert.match((await cli(['completion', 'fish'])).out, /complete -c basin -n '__fish_seen_subcommand_from schedule' -a 'disable'/);
  });

  it('backup to a .tar.gz and restore into a new directory', async () => {
    const out = path.join(tempDir(), 'b.tar.gz');
    const b = parse(await cli(['backup', '--out', out, '--json', ...P]));
    assert.equal(b.server_running, false);
    assert.equal(fs.statSync(out).mode & 0o777, 0o600);
    const target = path.join(tempDir(), 'restored');
    const r = parse(await cli(['restore', out, '--json', '--project', target]));
    assert.equal(r.restored, target);
    assert.equal(parse(await cli(['query', 'SELECT count(*)::INT FROM raw_shop.shop', '--json', '--project', target])).rows[0][0], 3);
    assert.ok(fs.existsSync(path.join(target, '.basin/state.db')));
    assert.equal((await cli(['restore', out, '--project', target])).code, 2, 'replacing needs --yes');
    const again = parse(await cli(['restore', out, '--yes', '--json', '--project', target]));
    assert.ok(again.previous && fs.existsSync(path.join(again.previous, '.basin/project.yml')));
  });

  it('doctor finds a broken venv and a missing env var and says how to fix each', async () => {
    const d = makeProject({ '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: api\n    type: rest_api\n    rest_api:\n      base_url: http://127.0.0.1:9/\n      auth_token_env: DOCTOR_TOKEN_MISSING\n      endpoints:\n        - path: users\n' });
    fs.mkdirSync(path.join(d, '.venv-tx/bin'), { recursive: true });
    fs.symlinkSync('/nonexistent/python3', path.join(d, '.venv-tx/bin/python'));
    const r = await cli(['doctor', '--json', '--project', d]);
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out);
    const venv = j.checks.find((c: any) => c.name === 'dbt virtualenv');
    assert.equal(venv.status, 'fail');
    assert.match(venv.fix, /rm -rf '.*\.venv-tx' && basin tx setup/);
    const src = j.checks.find((c: any) => c.name === 'source api (rest_api)');
    assert.equal(src.status, 'fail');
    assert.match(src.detail, /DOCTOR_TOKEN_MISSING/);
    assert.match(src.fix, /Add DOCTOR_TOKEN_MISSING=<value> to the project's \.env/);
    for (const c of j.checks) if (c.status !== 'ok') assert.ok(c.fix, `${c.name} has a fix`);
    const text = await cli(['doctor', '--project', d]);
    assert.match(text.out, /FAIL dbt virtualenv/);
    assert.match(text.out, /fix: Add DOCTOR_TOKEN_MISSING/);
    // the healthy project: its configuration and venvs pass
    const good = parse(await cli(['doctor', '--json', ...P]).then((x) => ({ ...x, code: 0 })));
    assert.equal(good.checks.find((c: any) => c.name === 'configuration').status, 'ok');
    assert.equal(good.checks.find((c: any) => c.name === 'dbt virtualenv').status, 'ok');
  });
});

describe('with a running server (auth on): through its API', () => {
  let app: BasinApp;
  let url: string;
  const keys: Record<string, string> = {};
  const api = async (method: string, p: string, key: string, body?: unknown) => {
    const res = await fetch(`${url}${p}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
    return res.json() as Promise<any>;
  };
  const home = tempDir();
  const asAdmin = () => ({ BASIN_API_KEY: keys.admin, BASIN_CONFIG_HOME: home });

  before(async () => {
    app = await bootApp(dir);
    const auth = app.container.resolve<AuthService>('auth');
    for (const role of ['admin', 'viewer'] as const) {
      const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, `${role}@example.com`, role, 'cli test password');
      keys[role] = auth.keys.create(u.id, 'cli', null).key;
    }
    url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  });
  after(() => app?.close());

  it('without a key the command says how to log in (exit 1)', async () => {
    // status reads public routes; the schedules need scheduler.view
    const r = await cli(['schedule', 'list', ...P], { BASIN_API_KEY: undefined, BASIN_CONFIG_HOME: home });
    assert.equal(r.code, 1);
    assert.match(r.err, /basin login/);
  });

  it('--json outputs equal the API', async () => {
    const env = asAdmin();
    const s = parse(await cli(['status', '--json', ...P], env));
    assert.equal(s.server.url, url);
    assert.deepEqual(s.sources, await api('GET', '/api/sources', keys.admin!));
    assert.equal(s.platform.version, (await api('GET', '/api/status', keys.admin!)).version);
    const sql = 'SELECT id, email FROM raw_shop.shop ORDER BY id';
    const { elapsed_ms: _a, ...q } = parse(await cli(['query', sql, '--json', ...P], env));
    const { elapsed_ms: _b, ...qa } = await api('POST', '/api/query', keys.admin!, { sql });
    assert.deepEqual(q, qa);
    assert.deepEqual(parse(await cli(['schedule', 'list', '--json', ...P], env)), await api('GET', '/api/schedules', keys.admin!));
    assert.deepEqual(parse(await cli(['model', 'list', '--json', ...P], env)), await api('GET', '/api/tx/models', keys.admin!));
    assert.deepEqual(parse(await cli(['governance', 'pii', '--json', ...P], env)), await api('GET', '/api/governance/pii', keys.admin!));
    assert.deepEqual(parse(await cli(['governance', 'overrides', '--json', ...P], env)), await api('GET', '/api/governance/pii/overrides', keys.admin!));
    assert.deepEqual(parse(await cli(['catalog', 'search', 'shop', '--json', ...P], env)), await api('GET', '/api/catalog/search?q=shop', keys.admin!));
    assert.deepEqual(parse(await cli(['catalog', 'lineage', '--json', ...P], env)), await api('GET', '/api/catalog/lineage', keys.admin!));
    assert.deepEqual(parse(await cli(['monitor', 'list', '--json', ...P], env)), await api('GET', '/api/monitoring', keys.admin!));
    assert.deepEqual(parse(await cli(['logs', '--json', ...P], env)), await api('GET', '/api/logs?limit=100', keys.admin!));
    assert.deepEqual(parse(await cli(['schedule', 'history', '--json', ...P], env)), await api('GET', '/api/schedules/history/recent?limit=20', keys.admin!));
  });

  it('writes go through the server: schedule run, model run, disable reloads the server', async () => {
    const env = asAdmin();
    const run = parse(await cli(['schedule', 'run', 'nightly', '--json', ...P], env));
    assert.equal(run.status, 'succeeded');
    assert.equal(run.trigger, 'manual');
    ok(await cli(['model', 'run', 'fct_orders', ...P], env));
    const runs = await api('GET', '/api/tx/runs?limit=1', keys.admin!);
    assert.equal(runs.items[0].selector, 'fct_orders');
    ok(await cli(['schedule', 'disable', 'nightly', ...P], env));
    assert.equal((await api('GET', '/api/schedules', keys.admin!))[0].enabled, false);
    ok(await cli(['schedule', 'enable', 'nightly', ...P], env));
    assert.equal((await api('GET', '/api/schedules', keys.admin!))[0].enabled, true);
    const c = await cli(['schedule', 'cancel', 'nope', ...P], env);
    assert.equal(c.code, 1);
    assert.match(c.err, /not found|Job/i);
  });

  it('basin login stores a key; commands then need no BASIN_API_KEY; the viewer may not run schedules', async () => {
    const env = { BASIN_API_KEY: undefined, BASIN_CONFIG_HOME: home };
    const l = await cli(['login', '--key', keys.viewer!, ...P], env);
    ok(l);
    assert.match(l.out, /viewer@example\.com/);
    const cred = path.join(home, 'credentials.json');
    assert.equal(fs.statSync(cred).mode & 0o777, 0o600);
    ok(await cli(['schedule', 'list', ...P], env));
    const denied = await cli(['schedule', 'run', 'nightly', ...P], env);
    assert.equal(denied.code, 1);
    assert.match(denied.err, /may not do this/);
    assert.equal((await cli(['login', '--key', 'basin_ak_wrongwrongwrongwrongwrongwrongwr', ...P], env)).code, 1);
    ok(await cli(['logout', ...P], env));
    assert.equal((await cli(['schedule', 'list', ...P], env)).code, 1);
    // e-mail and password: a key is created for this host and stored
    const byPassword = await cli(['login', '--email', 'admin@example.com', ...P], { ...env, BASIN_PASSWORD: 'cli test password' });
    ok(byPassword);
    assert.match(byPassword.out, /as admin@example\.com/);
    ok(await cli(['schedule', 'list', ...P], env));
    assert.equal((await cli(['login', '--email', 'admin@example.com', ...P], { ...env, BASIN_PASSWORD: 'wrong' })).code, 1);
    ok(await cli(['logout', ...P], env));
  });

  it('logs --follow prints new lines as they come; backup takes the serving copy; restore refuses', async () => {
    const env = asAdmin();
    const following = cli(['logs', '--follow', '--max-polls', '6', '--interval', '0.5', '-n', '1', ...P], env);
    await new Promise((r) => setTimeout(r, 300));
    await api('POST', '/api/sync/trigger', keys.admin!, { sources: ['shop'] });
    const f = await following;
    ok(f);
    assert.ok((f.out.match(/shop sync/g) ?? []).length >= 2, f.out);
    const out = path.join(tempDir(), 'live.tar.gz');
    const b = parse(await cli(['backup', '--out', out, '--json', ...P], env));
    assert.equal(b.server_running, true);
    assert.equal(b.warehouse_from, 'data/serving.db');
    const r = await cli(['restore', out, '--yes', ...P], env);
    assert.equal(r.code, 1);
    assert.match(r.err, /basin stop/);
  });
});

describe('start --detach and stop', () => {
  it('starts the server in the background, answers through it, stops it', async () => {
    const d = makeProject();
    disableAuth(d);
    const start = await cli(['start', '--detach', '--port', '0', '--project', d]);
    ok(start);
    assert.match(start.out, /running in the background at http:\/\/127\.0\.0\.1:\d+ \(pid \d+\)/);
    const s = parse(await cli(['status', '--json', '--project', d]));
    assert.ok(s.server.pid > 0 && s.server.pid !== process.pid);
    assert.equal((await cli(['start', '--detach', '--project', d])).code, 1, 'a second start is refused');
    const stop = await cli(['stop', '--project', d]);
    ok(stop);
    assert.match(stop.out, /Stopped the Basin server/);
    assert.ok(!fs.existsSync(path.join(d, '.basin/server.json')));
    assert.match((await cli(['stop', '--project', d])).out, /No Basin server is running/);
    assert.ok(fs.readFileSync(path.join(d, '.basin/logs/server.log'), 'utf8').includes('Basin is running'));
  });
});
