import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { definePlugin, lockFile, type BasinApp } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** one read and one write route; no auth plugin, so every request is the auth-disabled admin */
const probe = definePlugin({
  name: 'probe',
  register(ctx) {
    ctx.routes.get('/api/probe', { permission: 'public' }, async () => ({ ok: true }));
    ctx.routes.post('/api/probe', { permission: 'auth' }, async (req) => ({ wrote: true, body: req.body ?? null }));
  },
});

function request(base: string, opts: { method?: string; host?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: any }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: u.hostname, port: u.port, path: '/api/probe', method: opts.method ?? 'GET', headers: { ...(opts.host ? { host: opts.host } : {}), ...(opts.body ? { 'content-type': 'application/json' } : {}), ...opts.headers } },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

describe('issue 12: Host and Origin checks, slow bodies, project lock', () => {
  let app: BasinApp;
  let base: string;
  let dir: string;

  before(async () => {
    dir = makeProject();
    disableAuth(dir);
    app = await bootApp(dir, { plugins: [probe], bodyRate: { windowMs: 500, minBytesPerWindow: 64 } });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app?.close();
  });

  test('a loopback server refuses a foreign Host (DNS rebinding) and answers loopback names', async () => {
    const port = new URL(base).port;
    for (const host of [`evil.example:${port}`, 'evil.example', `127.0.0.1.evil.example:${port}`]) {
      for (const method of ['GET', 'POST']) {
        const r = await request(base, { method, host, body: method === 'POST' ? '{}' : undefined });
        assert.equal(r.status, 403, `${method} ${host}`);
        assert.equal(r.body.error.code, 'host_not_allowed');
      }
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `app.localhost:${port}`]) {
      assert.equal((await request(base, { host })).status, 200, host);
    }
    process.env.BASIN_ALLOWED_HOSTS = 'basin.example.org';
    try {
      assert.equal((await request(base, { host: 'basin.example.org' })).status, 200);
    } finally {
      delete process.env.BASIN_ALLOWED_HOSTS;
    }
  });

  test('with auth disabled, a cross-site write is refused; same-origin pages and scripts without Origin may write', async () => {
    const own = base.replace(/\/$/, '');
    const evil = await request(base, { method: 'POST', body: '{}', headers: { origin: 'http://evil.example' } });
    assert.equal(evil.status, 403);
    assert.equal(evil.body.error.code, 'csrf_rejected');
    assert.equal((await request(base, { method: 'POST', body: '{}', headers: { origin: 'null' } })).status, 403);
    assert.equal((await request(base, { method: 'POST', body: '{}', headers: { 'sec-fetch-site': 'cross-site' } })).status, 403);
    // another port of localhost is another origin (a page served by some other local program)
    assert.equal((await request(base, { method: 'POST', body: '{}', headers: { origin: 'http://127.0.0.1:1' } })).status, 403);
    assert.equal((await request(base, { method: 'POST', body: '{}', headers: { origin: own, 'sec-fetch-site': 'same-origin' } })).status, 200);
    assert.equal((await request(base, { method: 'POST', body: '{}' })).status, 200);
    // reads are not writes
    assert.equal((await request(base, { headers: { origin: 'http://evil.example' } })).status, 200);
  });

  test('a request body that trickles in ends with 408 request_timeout', async () => {
    const u = new URL(base);
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(u.port), u.hostname, () => {
        socket.write(`POST /api/probe HTTP/1.1\r\nHost: 127.0.0.1:${u.port}\r\nContent-Type: application/json\r\nContent-Length: 10000\r\n\r\n{`);
      });
      let text = '';
      const drip = setInterval(() => socket.write(' '), 200);
      socket.on('data', (c) => (text += c));
      socket.on('close', () => (clearInterval(drip), resolve(text)));
      socket.on('error', (e) => (clearInterval(drip), text ? resolve(text) : reject(e)));
    });
    assert.match(answer, /^HTTP\/1\.1 408/);
    assert.match(answer, /"code":"request_timeout"/);
    // bounded by the 500 ms window (a generous margin: the point is that it ends)
    assert.ok(Date.now() - started < 30_000);
    // a normal body still passes
    assert.equal((await request(base, { method: 'POST', body: JSON.stringify({ a: 'x'.repeat(5000) }) })).status, 200);
  });

  test('a second app on the same project is refused while the first holds it; a stale lock is taken over', async () => {
    await assert.rejects(bootApp(dir, { plugins: [probe] }), /Another Basin process \(pid \d+, started .*\) has this project open/);
    const other = makeProject();
    disableAuth(other);
    // a lock left by a process that no longer exists
    fs.writeFileSync(lockFile(other), JSON.stringify({ pid: 2 ** 22 + 12345, hostname: (await import('node:os')).hostname(), started_at: '2026-01-01T00:00:00Z' }));
    const second = await bootApp(other, { plugins: [probe] });
    assert.equal(JSON.parse(fs.readFileSync(lockFile(other), 'utf8')).pid, process.pid);
    await second.close();
    assert.equal(fs.existsSync(lockFile(other)), false);
  });
});

describe('issue 12: /ws with auth disabled', () => {
  test('a WebSocket from another origin or under a foreign Host is refused; a script without Origin connects', async () => {
    const { default: WebSocket } = await import('ws');
    const { default: realtime } = await import('@basin/plugin-realtime');
    const dir = makeProject();
    disableAuth(dir);
    const app = await bootApp(dir, { plugins: [realtime, probe] });
    try {
      const base = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/^http/, 'ws');
      const status = (headers: Record<string, string>) =>
        new Promise<number>((resolve) => {
          const ws = new WebSocket(`${base}/ws`, { headers });
          ws.on('error', () => {});
          ws.on('open', () => (ws.close(), resolve(101)));
          ws.on('unexpected-response', (_req, res) => (ws.terminate(), resolve(res.statusCode ?? 0)));
        });
      assert.equal(await status({ origin: 'http://evil.example' }), 403);
      assert.equal(await status({ host: 'evil.example' }), 403);
      assert.equal(await status({}), 101);
      assert.equal(await status({ origin: base.replace(/^ws/, 'http') }), 101);
    } finally {
      await app.close();
    }
  });
});

describe('basin start: one server per project, shutdown with a deadline', () => {
  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const port = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(port));
      });
    });

  function start(dir: string, port: number, extra: string[] = []) {
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin', 'basin.mjs'), 'start', '--project', dir, '--port', String(port), ...extra], {
      env: { ...process.env, BASIN_DEV: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const running = new Promise<void>((resolve, reject) => {
      const check = setInterval(() => {
        if (/Basin is running/.test(out)) (clearInterval(check), resolve());
      }, 100);
      void exited.then(() => (clearInterval(check), reject(new Error(`exited: ${out}`))));
    });
    running.catch(() => {});
    return { child, exited, running, output: () => out };
  }

  test('a second basin start is refused with a clear message; SIGTERM with a stuck request exits by the deadline', async () => {
    const dir = makeProject();
    disableAuth(dir);
    const first = start(dir, await freePort(), ['--shutdown-timeout', '2']);
    try {
      await first.running;
      const second = start(dir, await freePort());
      assert.equal(await second.exited, 1);
      assert.match(second.output(), /Another Basin process \(pid \d+.*has this project open/);

      // a request that never completes keeps the HTTP server from closing
      const port = Number(/127\.0\.0\.1:(\d+)/.exec(first.output())![1]);
      const stuck = net.connect(port, '127.0.0.1', () => stuck.write(`POST /api/query HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{`));
      stuck.on('error', () => {});
      await new Promise((r) => setTimeout(r, 300));
      const stopped = Date.now();
      first.child.kill('SIGTERM');
      const code = await first.exited;
      stuck.destroy();
      assert.ok(code === 0 || code === 1, String(code));
      // deadline 2 s; generous bound (the point: not minutes)
      assert.ok(Date.now() - stopped < 20_000, `${Date.now() - stopped} ms`);
      assert.equal(fs.existsSync(lockFile(dir)), false, 'the lock is released');
    } finally {
      first.child.kill('SIGKILL');
    }
  });
});
