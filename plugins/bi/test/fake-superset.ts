// A Superset venv for tests that do not need Superset itself (port-taken.test.ts, static-retry.test.ts):
// a stand-in gunicorn that binds, logs and answers as gunicorn does.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fakeCompanionVenv } from '@basin/test';
import { SupersetSupervisor } from '../src/supervisor.js';
import { supersetVenv } from '../src/venv.js';

const realPython = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();

/**
 * The stand-in: bound, it logs "Listening at: http://host:port (pid)" and answers /bi/health, and
 * /bi/static/assets/flaky-once.js with a 500 the first time. On a port the test lists as taken at bind
 * time, another program (standing in for another project's Superset, answering /bi/health too) takes
 * the port first; the stand-in then prints gunicorn's "Connection in use", retries for ~3 s as gunicorn
 * does, and exits 1.
 */
const GUNICORN = String.raw`import http.server, os, subprocess, sys, time
host, port = sys.argv[sys.argv.index('-b') + 1].rsplit(':', 1)
here = os.path.dirname(os.path.abspath(__file__))
# the health server: ours (after execv), or the other program's that takes the port first
HEALTH = """
import http.server, sys
class Health(http.server.BaseHTTPRequestHandler):
    flaky = 0
    def do_GET(self):
        if self.path == '/bi/static/assets/flaky-once.js':
            # a webpack chunk answered 500 once (its bytes as the body), then served
            Health.flaky += 1
            body = b'console.log("chunk")'
            self.send_response(500 if Health.flaky == 1 else 200)
            self.send_header('content-length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        self.send_response(200 if self.path == '/bi/health' else 404)
        self.end_headers()
        self.wfile.write(b'OK')
    def log_message(self, *a):
        pass
try:
    server = http.server.HTTPServer((sys.argv[1], int(sys.argv[2])), Health)
except OSError:
    print(f"[ERROR] Connection in use: ('{sys.argv[1]}', {sys.argv[2]})", file=sys.stderr, flush=True)
    sys.exit(1)
print(f"[INFO] Listening at: http://{sys.argv[1]}:{sys.argv[2]} ({sys.argv[3]})", file=sys.stderr, flush=True)
server.serve_forever()
"""
taken = os.path.join(here, 'taken-at-bind')
if os.path.exists(taken) and port in open(taken).read().split():
    squatter = subprocess.Popen([sys.executable, '-c', HEALTH, host, port, 'other'], stderr=subprocess.PIPE, start_new_session=True)
    open(os.path.join(here, 'squatter.pid'), 'w').write(str(squatter.pid))
    squatter.stderr.readline()
    for _ in range(3):
        print(f"[ERROR] connection to ('{host}', {port}) failed: [Errno 98] Address already in use", file=sys.stderr, flush=True)
        print(f"[ERROR] Connection in use: ('{host}', {port})", file=sys.stderr, flush=True)
        time.sleep(1)
    print(f"[ERROR] Can't connect to ('{host}', {port})", file=sys.stderr, flush=True)
    sys.exit(1)
os.execv(sys.executable, [sys.executable, '-c', HEALTH, host, port, str(os.getpid())])
`;

/** `dir/.venv-bi`: the stand-in gunicorn; its python answers the provisioning script with a database id and runs anything else for real */
export function fakeSupersetVenv(dir: string, takenAtBind: number[] = []): string {
  const venv = path.join(dir, '.venv-bi');
  fakeCompanionVenv(venv, 'superset', supersetVenv.spec.requirements);
  fs.rmSync(path.join(venv, 'bin', 'python'));
  fs.writeFileSync(path.join(venv, 'bin', 'python'), `#!/bin/sh\ncase "$1" in *provision.py) echo '{"database_id": 7}'; exit 0;; esac\nexec ${realPython} "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(venv, 'bin', 'gunicorn'), `#!${realPython}\n${GUNICORN}`, { mode: 0o755 });
  fs.writeFileSync(path.join(venv, 'bin', 'taken-at-bind'), takenAtBind.join(' '));
  return venv;
}

/** a supervisor of the stand-in venv in `dir`, with `port` as platform.bi_port */
export function fakeSupersetSupervisor(dir: string, venvDir: string, port: number, log: unknown): SupersetSupervisor {
  return new SupersetSupervisor({
    venv: supersetVenv,
    venvDir,
    home: path.join(dir, '.basin', 'bi'),
    port: () => port,
    servingPath: () => path.join(dir, 'data', 'serving.db'),
    startTimeoutMs: () => 20_000,
    log: log as never,
    onDatabaseId: () => {},
  });
}
