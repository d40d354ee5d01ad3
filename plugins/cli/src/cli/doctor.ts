// `basin doctor`: checks the environment, the project and what each plugin contributes (venvs, source
// credentials), and says how to fix every problem. Exit 1 when any check fails.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CliExit, EXIT, formatIssue, loadPlugins, loadProjectConfig, painter, runningServer, type CliContext, type DoctorCheck } from '@basin/core';
import { human } from './info.js';

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}

async function environment(): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  const major = Number(process.versions.node.split('.')[0]);
  checks.push(major >= 20 ? { area: 'environment', name: 'node', status: 'ok', detail: `Node ${process.version}` } : { area: 'environment', name: 'node', status: 'fail', detail: `Node ${process.version} is too old`, fix: 'Install Node.js 20 or newer.' });
  const py = spawnSync('python3', ['--version'], { encoding: 'utf8', timeout: 10_000 });
  checks.push(
    py.status === 0
      ? { area: 'environment', name: 'python3', status: 'ok', detail: (py.stdout || py.stderr).trim() }
      : { area: 'environment', name: 'python3', status: 'warn', detail: 'python3 not found: dbt, Superset and marimo need it', fix: 'Install Python 3.10+ with venv (Debian: apt-get install python3 python3-venv).' },
  );
  return checks;
}

export async function collectChecks(projectDir: string): Promise<DoctorCheck[]> {
  const checks = await environment();
  const plugins = await loadPlugins(projectDir);
  if (!fs.existsSync(path.join(projectDir, '.basin', 'project.yml'))) {
    checks.push({ area: 'project', name: 'project', status: 'fail', detail: `no Basin project in ${projectDir}`, fix: `Create one with "basin init ${projectDir}" or pass --project <dir>.` });
    return checks;
  }
  const { config, issues } = await loadProjectConfig(projectDir, plugins);
  const errs = issues.filter((i) => i.severity === 'error');
  checks.push(
    errs.length
      ? { area: 'project', name: 'configuration', status: 'fail', detail: errs.slice(0, 5).map(formatIssue).join('; '), fix: `Fix the ${errs.length} error(s) listed by "basin config validate --project ${projectDir}".` }
      : { area: 'project', name: 'configuration', status: 'ok', detail: 'every configuration file is valid' },
  );
  const server = runningServer(projectDir);
  checks.push({ area: 'project', name: 'server', status: 'ok', detail: server ? `running at ${server.url} (pid ${server.pid})` : 'not running' });
  for (const p of plugins) {
    if (!p.doctor) continue;
    try {
      checks.push(...(await p.doctor({ projectDir, config, serverRunning: !!server })));
    } catch (e) {
      checks.push({ area: p.name, name: `${p.name} checks`, status: 'fail', detail: (e as Error).message, fix: 'Report this: a doctor check failed to run.' });
    }
  }
  // disk: where the warehouse lives
  try {
    const dataDir = config ? config.resolve(config.platform.data_dir) : projectDir;
    const st = fs.statfsSync(fs.existsSync(dataDir) ? dataDir : projectDir);
    const free = st.bavail * st.bsize;
    const pct = (st.bavail / st.blocks) * 100;
    checks.push(
      free < 512 * 1024 ** 2
        ? { area: 'disk', name: 'free space', status: 'fail', detail: `${human(free)} free`, fix: 'Free disk space ("basin cleanup" removes old logs and dbt artifacts) or move platform.data_dir to a larger disk.' }
        : pct < 10
          ? { area: 'disk', name: 'free space', status: 'warn', detail: `${human(free)} free (${pct.toFixed(0)}%)`, fix: 'Free disk space soon: "basin cleanup" removes old logs and dbt artifacts.' }
          : { area: 'disk', name: 'free space', status: 'ok', detail: `${human(free)} free (${pct.toFixed(0)}%)` },
    );
  } catch (e) {
    checks.push({ area: 'disk', name: 'free space', status: 'warn', detail: `could not read: ${(e as Error).message}`, fix: 'Check the data directory exists and is readable.' });
  }
  // ports: a running server holds its own; anything else on them is a conflict
  if (config) {
    const pl = config.platform;
    for (const [key, port] of [['port', pl.port], ['bi_port', pl.bi_port], ['notebook_port', pl.notebook_port], ['tx_docs_port', pl.tx_docs_port]] as const) {
      if (typeof port !== 'number' || port <= 0) continue;
      if (server) {
        checks.push({ area: 'ports', name: key, status: 'ok', detail: `${port} (the running server's)` });
        continue;
      }
      checks.push(
        (await portFree(port))
          ? { area: 'ports', name: key, status: 'ok', detail: `${port} is free` }
          : { area: 'ports', name: key, status: 'fail', detail: `${port} is in use by another process`, fix: `Stop the process on port ${port} (e.g. "ss -ltnp | grep :${port}") or set platform.${key} in .basin/project.yml to a free port.` },
      );
    }
  }
  return checks;
}

export async function runDoctor(cli: CliContext, projectDir: string, o: { json?: boolean }): Promise<void> {
  const found = await collectChecks(projectDir);
  const areas = [...new Set(found.map((c) => c.area))];
  const checks = areas.flatMap((a) => found.filter((c) => c.area === a));
  const failed = checks.filter((c) => c.status === 'fail').length;
  const warned = checks.filter((c) => c.status === 'warn').length;
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  if (o.json) out(JSON.stringify({ ok: failed === 0, failed, warnings: warned, checks }, null, 2));
  else {
    const p = painter(cli.stdout);
    let area = '';
    for (const c of checks) {
      if (c.area !== area) out(`${area ? '\n' : ''}${p.bold((area = c.area))}`);
      const mark = c.status === 'ok' ? p.green('ok  ') : c.status === 'warn' ? p.yellow('warn') : p.red('FAIL');
      out(`  ${mark} ${c.name}: ${c.detail}`);
      if (c.fix && c.status !== 'ok') out(`       fix: ${c.fix}`);
    }
    out(`\n${failed ? p.red(`${failed} problem(s)`) : p.green('No problems')}${warned ? `, ${warned} warning(s)` : ''}.`);
  }
  if (failed) throw new CliExit(EXIT.failure);
}
