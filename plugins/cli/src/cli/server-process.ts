// `basin start --detach` and `basin stop`: the server as a background process of this host.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CliExit, EXIT, pidAlive, runningServer, type CliContext } from '@basin/core';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** the `basin` launcher of this install, found upward from this file (src/cli/ and dist/ sit at different depths) */
function basinBin(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const f = path.join(dir, 'bin', 'basin.mjs');
    if (fs.existsSync(f)) return f;
    dir = path.dirname(dir);
  }
  throw new CliExit(EXIT.failure, 'basin start --detach: cannot find bin/basin.mjs of this install.');
}

export const serverLogFile = (projectDir: string) => path.join(projectDir, '.basin', 'logs', 'server.log');

export async function startDetached(cli: CliContext, projectDir: string, o: { port?: string; host: string; logLevel: string; waitSeconds?: number }): Promise<void> {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const existing = runningServer(projectDir);
  if (existing) throw new CliExit(EXIT.failure, `basin start: a Basin server already runs for this project (pid ${existing.pid}, ${existing.url}); stop it with "basin stop".`);
  const log = serverLogFile(projectDir);
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const fd = fs.openSync(log, 'a', 0o600);
  // running from TypeScript sources (BASIN_DEV): the child needs the same loader
  const dev = import.meta.url.endsWith('.ts');
  const args = [...(dev ? ['--conditions=development', '--import', 'tsx'] : []), basinBin(), 'start', '--project', projectDir, '--host', o.host, '--log-level', o.logLevel, ...(o.port ? ['--port', o.port] : [])];
  const child = spawn(process.execPath, args, { detached: true, stdio: ['ignore', fd, fd], env: { ...process.env, ...(dev ? { BASIN_DEV: '1' } : {}) } });
  fs.closeSync(fd);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? 1));
  child.unref();
  const deadline = Date.now() + (o.waitSeconds ?? 180) * 1000;
  while (Date.now() < deadline) {
    const s = runningServer(projectDir);
    if (s && s.pid === child.pid) {
      out(`Basin is running in the background at ${s.url} (pid ${s.pid}); logs in ${log}. Stop it with "basin stop".`);
      return;
    }
    if (exited !== null) {
      const tail = fs.readFileSync(log, 'utf8').trim().split('\n').slice(-8).join('\n');
      throw new CliExit(exited === 2 ? EXIT.config : EXIT.failure, `basin start --detach: the server exited (code ${exited}):\n${tail}`);
    }
    await sleep(200);
  }
  throw new CliExit(EXIT.failure, `basin start --detach: the server (pid ${child.pid}) did not open its port within ${o.waitSeconds ?? 180}s; see ${log}.`);
}

export async function stopServer(cli: CliContext, projectDir: string, o: { timeout: string; json?: boolean }): Promise<void> {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const s = runningServer(projectDir);
  if (!s) {
    out(o.json ? JSON.stringify({ stopped: false, running: false }) : 'No Basin server is running for this project.');
    return;
  }
  if (s.pid === process.pid) throw new CliExit(EXIT.failure, 'basin stop: the server runs in this very process.');
  process.kill(s.pid, 'SIGTERM');
  const deadline = Date.now() + Number(o.timeout) * 1000;
  while (pidAlive(s.pid) && Date.now() < deadline) await sleep(100);
  if (pidAlive(s.pid)) throw new CliExit(EXIT.failure, `basin stop: the server (pid ${s.pid}) is still shutting down after ${o.timeout}s; wait, or end it with "kill -9 ${s.pid}".`);
  out(o.json ? JSON.stringify({ stopped: true, pid: s.pid, url: s.url }) : `Stopped the Basin server (pid ${s.pid}, ${s.url}).`);
}
