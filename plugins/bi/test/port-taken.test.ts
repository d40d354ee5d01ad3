import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { httpCall } from '@basin/core';
import { fakeCompanionVenv, tempDir } from '@basin/test';
import { SupersetSupervisor } from '../src/supervisor.js';
import { supersetVenv } from '../src/venv.js';
import { freePort } from '../../../test/support/server-process.js';

const realPython = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

/**
 * A Superset venv whose gunicorn is a small stand-in that binds like gunicorn: bound, it logs
 * "Listening at: http://host:port (pid)" and answers /bi/health. On a port the test lists as taken at
 * bind time, another program (standing in for another project's Superset, answering /bi/health too)
 * takes the port first; the stand-in then prints gunicorn's "Connection in use", retries for ~3 s as
 * gunicorn does, and exits 1. The venv's python answers the provisioning script with a database id
 * and runs anything else for real.
 */
function fakeSupersetVenv(dir: string, takenAtBind: number[] = []): string {
  const venv = path.join(dir, '.venv-bi');
  fakeCompanionVenv(venv, 'superset', supersetVenv.spec.requirements);
  fs.rmSync(path.join(venv, 'bin', 'python'));
  fs.writeFileSync(path.join(venv, 'bin', 'python'), `#!/bin/sh\ncase "$1" in *provision.py) echo '{"database_id": 7}'; exit 0;; esac\nexec ${realPython} "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(venv, 'bin', 'gunicorn'), `#!${realPython}\nimport http.server, os, subprocess, sys, time\nhost, port = sys.argv[sys.argv.index('-b') + 1].rsplit(':', 1)\nhere = os.path.dirname(os.path.abspath(__file__))\n# the health server: ours (after execv), or the other program's that takes the port first\nHEALTH = """\nimport http.server, sys\nclass Health(http.server.BaseHTTPRequestHandler):\n    def do_GET(self):\n        self.send_response(200 if self.path == '/bi/health' else 404)\n        self.end_headers()\n        self.wfile.write(b'OK')\n    def log_message(self, *a):\n        pass\ntry:\n    server = http.server.HTTPServer((sys.argv[1], int(sys.argv[2])), Health)\nexcept OSError:\n    print(f"[ERROR] Connection in use: ('{sys.argv[1]}', {sys.argv[2]})", file=sys.stderr, flush=True)\n    sys.exit(1)\nprint(f"[INFO] Listening at: http://{sys.argv[1]}:{sys.argv[2]} ({sys.argv[3]})", file=sys.stderr, flush=True)\nserver.serve_forever()\n"""\ntaken = os.path.join(here, 'taken-at-bind')\nif os.path.exists(taken) and port in open(taken).read().split():\n    squatter = subprocess.Popen([sys.executable, '-c', HEALTH, host, port, 'other'], stderr=subprocess.PIPE, start_new_session=True)\n    open(os.path.join(here, 'squatter.pid'), 'w').write(str(squatter.pid))\n    squatter.stderr.readline()\n    for _ in range(3):\n        print(f"[ERROR] connection to ('{host}', {port}) failed: [Errno 98] Address already in use", file=sys.stderr, flush=True)\n        print(f"[ERROR] Connection in use: ('{host}', {port})", file=sys.stderr, flush=True)\n        time.sleep(1)\n    print(f"[ERROR] Can't connect to ('{host}', {port})", file=sys.stderr, flush=True)\n    sys.exit(1)\nos.execv(sys.executable, [sys.executable, '-c', HEALTH, host, port, str(os.getpid())])\n`, { mode: 0o755 });
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

const health = async (port: number) => (await httpCall(`http://127.0.0.1:${port}/bi/health`, { method: 'GET', timeoutMs: 2000 })).status;

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
    assert.equal(await health(supervisor.port), 200, 'Superset answers where `port` says');
    assert.equal(supervisor.databaseId, 7);
    assert.ok(logs.some((l) => l.startsWith('warn') && l.includes(`port ${configured} (platform.bi_port) is taken`)), logs.join('\n'));
  } finally {
    await supervisor.stop();
    other.close();
  }
});

test('a port taken between the free-port check and the bind is left for the next one, though the other program answers the health probe', async () => {
  const dir = tempDir();
  const configured = await freePort();
  const venvDir = fakeSupersetVenv(dir, [configured]);
  const supervisor = supervisorOn(dir, venvDir, configured);
  try {
    await supervisor.start();
    assert.equal(supervisor.current.state, 'running');
    assert.equal(await health(configured), 200, 'the other program answered on the configured port all along');
    assert.ok(supervisor.port > configured, `moved past ${configured}: ${supervisor.port}`);
    assert.equal(supervisor.current.restarts, 0, 'a failed bind is not a crash');
    assert.equal(await health(supervisor.port), 200);
  } finally {
    await supervisor.stop();
    const squatter = path.join(venvDir, 'bin', 'squatter.pid');
    if (fs.existsSync(squatter)) process.kill(Number(fs.readFileSync(squatter, 'utf8')), 'SIGKILL');
  }
});
