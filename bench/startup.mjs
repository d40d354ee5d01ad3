#!/usr/bin/env node
// Start-up of the `basin` CLI and server (built packages), with same-run baselines:
// - CLI: `basin --version`, `basin --help` and `basin status` against the running server (a command
//   that only talks to it), each against `node -e 0` (Node's own start). Targets (issue 19): 150 ms,
//   150 ms, 300 ms.
// - server: `basin start` on the demo project to listening, and its idle RSS, against a bare fastify
//   server started the same way. Targets (issue 19): start < 500 ms, idle RSS < 100 MB.
// The machine may be shared: medians of `runs`, wall and CPU (user+sys) time of each CLI process.
// Usage: node bench/startup.mjs [runs=5]   (run "npm run build" first)
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.argv[2] ?? 5);

/** CPU time (user + sys) a process has used so far, from /proc (10 ms ticks): less swayed by a busy machine than wall time */
function cpuMs(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssMb(pid) {
  const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(s)[1]) / 1024;
}

async function measure(args, url, env = {}, exe = process.execPath, whileUp = () => {}) {
  const t0 = performance.now();
  const child = spawn(exe, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...env } });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
    try {
      const r = await fetch(url);
      // listening: any HTTP answer (the "to listening"); /api/status comes after, below
      if (r.status > 0) break;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const startMs = performance.now() - t0;
  const startCpu = cpuMs(child.pid);
  // the first full GET /api/status (it asks every companion: dbt, Superset, marimo) after listening
  const statusUrl = url.replace(/\/api\/auth\/me$/, '/api/status');
  while (!(await fetch(statusUrl).then((r) => r.ok, () => false))) await new Promise((r) => setTimeout(r, 10));
  const statusMs = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 2000)); // idle
  const rss = rssMb(child.pid);
  whileUp();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { startMs, statusMs, rss, startCpu };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// a throwaway copy of the demo project so the bench never touches the real one
const proj = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-bench-'));
fs.cpSync(path.join(root, 'examples', 'demo'), proj, { recursive: true, filter: (src) => !src.includes(`${path.sep}data${path.sep}`) && !src.endsWith(`${path.sep}data`) });
const baselineFile = path.join(proj, 'baseline.mjs');
fs.writeFileSync(baselineFile, `import Fastify from '${pathToFastify()}'; const app = Fastify(); app.get('/api/status', async () => ({ ok: true })); await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });`);
function pathToFastify() {
  return path.join(root, 'node_modules', 'fastify', 'fastify.js');
}

/** wall ms of one CLI process, spawned as a shell would; its CPU time (user + sys, /usr/bin/time) goes to `cpu` */
const timeFile = path.join(proj, 'time.out');
function timeCli(exe, args, cpu) {
  const t0 = performance.now();
  const child = spawnSync('/usr/bin/time', ['-o', timeFile, '-f', '%U %S', exe, ...args], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const wall = performance.now() - t0;
  if (child.status !== 0) throw new Error(`${exe} ${args.join(' ')} exited ${child.status}: ${child.stderr}`);
  const [u, s] = fs.readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
  cpu.push((u + s) * 1000);
  return wall;
}

const basin = [];
const base = [];
const cli = { node: [], version: [], help: [], status: [] };
const cliCpu = { node: [], version: [], help: [], status: [] };
for (let i = 0; i < runs; i++) {
  const port = 18900 + i;
  base.push(await measure([baselineFile], `http://127.0.0.1:${port}/api/status`, { PORT: String(port) }));
  // the `basin` executable as users run it (by its shebang)
  basin.push(await measure(['start', '--project', proj, '--port', String(port + 50), '--log-level', 'warn'], `http://127.0.0.1:${port + 50}/api/auth/me`, {}, path.join(root, 'bin', 'basin.mjs'), () => {
    // while the server runs: the CLI figures
    const bin = path.join(root, 'bin', 'basin.mjs');
    cli.node.push(timeCli(process.execPath, ['-e', '0'], cliCpu.node));
    cli.version.push(timeCli(bin, ['--version'], cliCpu.version));
    cli.help.push(timeCli(bin, ['--help'], cliCpu.help));
    cli.status.push(timeCli(bin, ['status', '--project', proj], cliCpu.status));
  }));
}
const bs = median(basin.map((r) => r.startMs));
const br = median(basin.map((r) => r.rss));
const fs_ = median(base.map((r) => r.startMs));
const fr = median(base.map((r) => r.rss));
console.log(`runs: ${runs} (median)`);
console.log(`bare fastify : start ${fs_.toFixed(0)} ms, idle RSS ${fr.toFixed(1)} MB`);
console.log(`basin start  : start ${bs.toFixed(0)} ms, idle RSS ${br.toFixed(1)} MB  (demo project, all plugins; first GET /api/status answered at ${median(basin.map((r) => r.statusMs)).toFixed(0)} ms)`);
console.log(`CPU (user+sys): basin start to listening ${median(basin.map((r) => r.startCpu)).toFixed(0)} ms, bare fastify ${median(base.map((r) => r.startCpu)).toFixed(0)} ms`);
console.log(`ratio        : start x${(bs / fs_).toFixed(2)}, RSS x${(br / fr).toFixed(2)}`);
console.log(`targets      : start < 500 ms ${bs < 500 ? 'MET' : 'MISSED'}, idle RSS < 100 MB ${br < 100 ? 'MET' : 'MISSED'}`);
const n0 = median(cli.node);
const c0 = median(cliCpu.node);
for (const [name, xs, cpu, target] of [['basin --version', cli.version, cliCpu.version, 150], ['basin --help', cli.help, cliCpu.help, 150], ['basin status (server up)', cli.status, cliCpu.status, 300]]) {
  const m = median(xs);
  console.log(`${name.padEnd(25)}: ${m.toFixed(0)} ms wall (node -e 0: ${n0.toFixed(0)} ms; x${(m / n0).toFixed(2)}), CPU ${median(cpu).toFixed(0)} ms (node -e 0: ${c0.toFixed(0)} ms), target < ${target} ms ${m < target ? 'MET' : 'MISSED'}`);
}
console.log(`load average : ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
fs.rmSync(proj, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
