// basin deploy to an SSH host (a real sshd on loopback with a throwaway key): the deployed Basin answers
// /api/status, the printed deploy token runs the initial sync there, a redeploy restarts it in place
// and keeps the synced data, and no secret from .env appears in the output. The server is this same
// machine, so the deploy links the local Basin install (--reuse-install) instead of uploading the
// release and running the setup script (npm install, virtualenvs) again; the dry-run test shows those
// steps of the real path.
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { makeProject, tempDir } from '@basin/test';
import { startSshd, type SshServer } from '../../../test/support/sshd.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const SECRET = 'super-secret-api-token-4711';

function basin(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), ...args], { cwd: root, env: { ...process.env, BASIN_DEV: '1' } });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

describe('basin deploy (byos over SSH)', () => {
  let sshd: SshServer;
  let dir: string;
  let remoteDir: string;
  let port: number;

  before(async () => {
    sshd = await startSshd();
    port = await freePort();
    remoteDir = path.join(tempDir('basin-remote-'), 'basin');
    dir = makeProject({
      '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: orders\n    type: local_files\n    local_files:\n      directory: data/orders\n',
      'data/orders/orders.csv': 'id,status\n1,paid\n2,open\n3,paid\n',
      '.basin/cloud.yml': `provider: byos\nserver_ip: ${sshd.host}\nssh_user: ${sshd.user}\nssh_port: ${sshd.port}\nssh_key_path: ${sshd.keyPath}\nremote_dir: ${remoteDir}\n`,
      '.env': `# tokens\nSOME_API_TOKEN=${SECRET}\n`,
    });
    const f = path.join(dir, '.basin/project.yml');
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('port: 8800', `port: ${port}\n  auto_tx: false`) + 'bi:\n  enabled: false\n');
  });
  after(async () => {
    // stop the deployed server (its supervisor runs in its own process group)
    const pidFile = path.join(remoteDir, 'supervise.pid');
    if (fs.existsSync(pidFile)) {
      try {
        process.kill(-Number(fs.readFileSync(pidFile, 'utf8').trim()), 'SIGTERM');
      } catch {
        /* already gone */
      }
      for (let i = 0; i < 100 && fs.existsSync(path.join(remoteDir, 'project/.basin/server.json')); i++) await new Promise((r) => setTimeout(r, 100));
    }
    await sshd?.stop();
  });

  const api = async (method: string, p: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${port}${p}`, { method, headers });
    return { status: res.status, body: (await res.json()) as any };
  };

  test('deploy, initial sync with the printed token, redeploy keeps the data', async () => {
    const first = await basin(['deploy', '--project', dir, '--reuse-install', root]);
    assert.equal(first.code, 0, first.out);
    assert.match(first.out, /supervised process/);
    assert.match(first.out, /Basin is running at http:\/\/127\.0\.0\.1:\d+\//);
    assert.ok(!first.out.includes(SECRET), 'no secret in the deploy output');
    const token = /basin_dt_[A-Za-z0-9_-]{43}/.exec(first.out)?.[0];
    assert.ok(token, first.out);

    const status = await api('GET', '/api/status');
    assert.equal(status.status, 200);
    assert.equal(status.body.warehouse.status, 'ok');
    // the project and its .env arrived; the .env is private
    assert.equal(fs.readFileSync(path.join(remoteDir, 'project/.env'), 'utf8'), fs.readFileSync(path.join(dir, '.env'), 'utf8'));
    assert.equal(fs.statSync(path.join(remoteDir, 'project/.env')).mode & 0o777, 0o600);

    const started = await api('POST', '/api/initial-sync/start', { 'x-basin-deploy-token': token! });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    let s: any;
    for (let i = 0; i < 200; i++) {
      s = (await api('GET', '/api/initial-sync/status', { 'x-basin-deploy-token': token! })).body;
      if (s.state !== 'running') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(s.state, 'completed', JSON.stringify(s));
    const rows = async () => (await api('GET', '/api/sources')).body.find((x: { name: string }) => x.name === 'orders')?.row_count;
    assert.equal(await rows(), 3);

    // a redeploy after a config change, from a git project whose deploy_branch is not the checked-out
    // one: the branch's tree is what arrives; updated in place, restarted, the synced data still there
    const g = (...a: string[]) => execFileSync('git', ['-C', dir, '-c', 'user.email=t@example.com', '-c', 'user.name=t', ...a], { encoding: 'utf8' });
    g('init', '-q', '-b', 'main');
    fs.appendFileSync(path.join(dir, '.basin/sources.yml'), '# redeployed\n');
    g('add', '.');
    g('commit', '-q', '-m', 'project');
    g('checkout', '-q', '-b', 'release');
    fs.mkdirSync(path.join(dir, 'notes'));
    fs.writeFileSync(path.join(dir, 'notes/release.txt'), 'only on the release branch\n');
    g('add', 'notes');
    g('commit', '-q', '-m', 'release notes');
    g('checkout', '-q', 'main');
    assert.equal(fs.existsSync(path.join(dir, 'notes/release.txt')), false);
    fs.appendFileSync(path.join(dir, '.basin/cloud.yml'), 'deploy_branch: release\n');
    const second = await basin(['deploy', '--project', dir, '--reuse-install', root]);
    assert.equal(second.code, 0, second.out);
    assert.ok(!/basin_dt_/.test(second.out), 'the deploy token is issued on the first deploy only');
    assert.ok(!second.out.includes(SECRET));
    assert.match(second.out, /upload the project at release \(/);
    assert.match(fs.readFileSync(path.join(remoteDir, 'project/.basin/sources.yml'), 'utf8'), /# redeployed/);
    assert.equal(fs.readFileSync(path.join(remoteDir, 'project/notes/release.txt'), 'utf8'), 'only on the release branch\n');
    assert.equal((await api('GET', '/api/status')).status, 200);
    assert.equal(await rows(), 3);
    const journal = fs.readFileSync(path.join(remoteDir, 'project/.basin/deployments.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(journal.map((j) => j.first), [true, false]);
  });

  test('--dry-run prints every step of the real path (release upload, setup script, systemd unit, Caddy) and changes nothing', async () => {
    const d = makeProject({ '.basin/cloud.yml': `provider: byos\nserver_ip: 203.0.113.7\ndomain: basin.example.com\nremote_dir: /opt/basin\n`, '.env': `T=${SECRET}\n` });
    execFileSync('git', ['-C', d, 'init', '-q', '-b', 'main']);
    execFileSync('git', ['-C', d, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'add', '.']);
    execFileSync('git', ['-C', d, '-c', 'user.email=t@example.com', '-c', 'user.name=t', 'commit', '-q', '-m', 'init']);
    const r = await basin(['deploy', '--dry-run', '--project', d]);
    assert.equal(r.code, 0, r.out);
    for (const step of ['upload the Basin release', 'run the setup script there', 'upload the project at main (', 'upload .env (mode 0600)', 'stop the running Basin', 'issue the one-time deploy token', 'write /etc/systemd/system/basin.service', 'put Caddy (TLS) in front for basin.example.com', 'wait until Basin answers /api/status', 'record the deploy']) {
      assert.ok(r.out.includes(step), `${step}\n${r.out}`);
    }
    assert.match(r.out, /\$ git archive main/);
    assert.match(r.out, /Nothing was changed/);
    assert.ok(!r.out.includes(SECRET));
    // a deploy branch that does not exist is named
    fs.appendFileSync(path.join(d, '.basin/cloud.yml'), 'deploy_branch: release\n');
    const bad = await basin(['deploy', '--dry-run', '--project', d]);
    assert.equal(bad.code, 1);
    assert.match(bad.out, /deploy_branch "release" does not exist/);
  });
});
