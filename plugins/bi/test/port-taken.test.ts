import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fakeCompanionVenv, tempDir } from '@basin/test';
import { SupersetSupervisor } from '../src/supervisor.js';
import { supersetVenv } from '../src/venv.js';
import { freePort } from '../../../test/support/server-process.js';

const realPython = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

/**
 * A Superset venv whose gunicorn is a small stand-in with gunicorn's own bind behaviour: it binds the
 * `-b` address or prints gunicorn's "Connection in use" and exits 1; bound, it answers /bi/health. The
 * venv's python answers the provisioning script with a database id and runs anything else for real.
 */
function fakeSupersetVenv(dir: string, takenAtBind: number[] = []): string {
  const venv = path.join(dir, '.venv-bi');
  fakeCompanionVenv(venv, 'superset', supersetVenv.spec.requirements);
  fs.rmSync(path.join(venv, 'bin', 'python'));
  fs.writeFileSync(path.join(venv, 'bin', 'python'), `#!/bin/sh\ncase "$1" in *provision.py) echo '{"database_id": 7}'; exit 0;; esac\nexec ${realPython} "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(
    path.join(venv, 'bin', 'gunicorn'),
    `#!${realPython}
import http.server, os, sys
host, port = sys.argv[sys.argv.index('-b') + 1].rsplit(':', 1)
# ports a test says are taken at bind time (after Basin found them free): gunicorn's failure, as it prints it
taken = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'taken-at-bind')
if os.path.exists(taken) and port in open(taken).read().split():
    print(f"[ERROR] connection to ('{host}', {port}) failed: [Errno 98] Address already in use", file=sys.stderr, flush=True)
    sys.exit(1)
class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == '/bi/health' else 404)
        self.end_headers()
        self.wfile.write(b'OK')
    def log_message(self, *a):
        pass
try:
    server = http.server.HTTPServer((host, int(port)), Health)
except OSError as e:
    print(f"[ERROR] Connection in use: ('{host}', {port})", file=sys.stderr, flush=True)
    sys.exit(1)
server.serve_forever()
`,
    { mode: 0o755 },
  );
  fs.writeFileSync(path.join(venv, 'bin', 'taken-at-bind'), takenAtBind.join(' '));
  return venv;
}

const logs: string[] = [];
const log = {
  info: () => {},
  debug: () => {},
  error: (o: unknown, m?: string) => logs.push(`error ${m ?? ''} ${JSON.stringify(o)}`),
  warn: (o: unknown, m?: string) => logs.push(`warn ${m ?? ''} ${JSON.stringify(o)}`),
  child: () => log,
};

/** a supervisor of the fake venv with `configured` as platform.bi_port */
function supervisorOn(dir: string, venvDir: string, configured: number): SupersetSupervisor {
  return new SupersetSupervisor({
    venv: supersetVenv,
    venvDir,
    home: path.join(dir, '.basin', 'bi'),
    port: () => configured,
    servingPath: () => path.join(dir, 'data', 'serving.db'),
    startTimeoutMs: () => 20_000,
    log: log as never,
    onDatabaseId: () => {},
  });
}

test('Superset starts on the next free port when another program holds platform.bi_port, and `port` says where', async () => {
  const dir = tempDir();
  const venvDir = fakeSupersetVenv(dir);
  const configured = await freePort();
  // another program (another project's Superset, an orphan) on the configured port
  const other = net.createServer((s) => s.end()).listen(configured, '127.0.0.1');
  await new Promise((r) => other.once('listening', r));
  const supervisor = supervisorOn(dir, venvDir, configured);
  try {
    await supervisor.start();
    assert.equal(supervisor.current.state, 'running');
    assert.notEqual(supervisor.port, configured, 'not on the taken port');
    assert.ok(supervisor.port > configured && supervisor.port < configured + 20, `on a port after ${configured}: ${supervisor.port}`);
    assert.equal((await fetch(`http://127.0.0.1:${supervisor.port}/bi/health`)).status, 200, 'Superset answers where `port` says');
    assert.equal(supervisor.databaseId, 7);
    assert.ok(logs.some((l) => l.startsWith('warn') && l.includes(`port ${configured} (platform.bi_port) is taken`)), logs.join('\n'));
  } finally {
    await supervisor.stop();
    other.close();
  }
});

test('a port taken between the free-port check and the bind is retried on the next one', async () => {
  const dir = tempDir();
  const configured = await freePort();
  // free when the supervisor looks, taken when gunicorn binds it
  const venvDir = fakeSupersetVenv(dir, [configured]);
  const supervisor = supervisorOn(dir, venvDir, configured);
  try {
    await supervisor.start();
    assert.equal(supervisor.current.state, 'running');
    assert.ok(supervisor.port > configured, `moved past ${configured}: ${supervisor.port}`);
    assert.equal(supervisor.current.restarts, 0, 'a failed bind is not a crash');
    assert.equal((await fetch(`http://127.0.0.1:${supervisor.port}/bi/health`)).status, 200);
  } finally {
    await supervisor.stop();
  }
});
