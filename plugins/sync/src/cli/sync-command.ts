import path from 'node:path';
import type cliProgressTypes from 'cli-progress';
import { CliExit, createServiceRef, EXIT, type CliContext } from '@basin/core';
import type { SyncEngineImpl } from '../engine.js';
import { runningServer, type ServerInfo } from '@basin/core';
import { configuredSources } from '@basin/plugin-sources/contract';
import type { SyncPhase, SyncRecord } from '../types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 1234567 -> "1,234,567" (not toLocaleString: the first Intl use in a process costs ~15-20 ms) */
const grouped = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const secs = (ms: number | undefined) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`);

/** The times of a sync run in this process, from the process's start to the warehouse closed. */
interface RunTimes {
  /** process start to the command beginning to boot the project (Node, the CLI, the sync plugin) */
  startMs: number;
  /** booting the project: config, every plugin's registration */
  openMs: number;
  /**
   * closing the project after the syncs: what other plugins do as a one-shot command ends (the dbt
   * run of platform.auto_tx, printed with its own time; the metric monitors) and the warehouse's last
   * checkpoint
   */
  closeMs: number;
  /** process start to the project closed */
  totalMs: number;
}

/**
 * One line per source saying where its wall time went, in order: start, open, load (reading the
 * files into staging, opening the warehouse on first use included; the rate is rows over this phase
 * alone), swap, checks (schema drift, PII), publish (the serving copy, written while the checks run)
 * and close (with the auto_tx dbt run and the monitors, when they run); the total is the process's
 * time from its start to the close.
 */
function phaseLine(r: SyncRecord, t: RunTimes, p: Partial<Record<SyncPhase, number>>): string {
  const rate = p.load ? ` (${grouped(Math.round(r.rows / (p.load / 1000)))} rows/s)` : '';
  const publish = p.publish === undefined ? 'publish on first read' : `publish ${secs(p.publish)} (beside the checks)`;
  return `${r.source}: ${secs(t.totalMs)} in all: start ${secs(t.startMs)}, open ${secs(t.openMs)}, load ${secs(p.load)}${rate}, swap ${secs(p.swap)}, checks ${secs(p.checks)}, ${publish}, close ${secs(t.closeMs)}`;
}

function summary(r: SyncRecord): string {
  const tables = r.tables.map((t) => `${t.schema}.${t.name} +${t.rows}`).join(', ');
  return `${r.source}: ${r.status}${r.status === 'failed' || r.status === 'cancelled' ? ` - ${r.error}` : ` - ${r.rows} rows${tables ? ` (${tables})` : ''}`}`;
}

/** The server holds the warehouse: ask it to sync and poll the records. */
async function syncThroughServer(cli: CliContext, server: ServerInfo, names: string[], fullRefresh: boolean): Promise<SyncRecord[]> {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' };
  if (process.env.BASIN_API_KEY) headers.authorization = `Bearer ${process.env.BASIN_API_KEY}`;
  const call = async (method: string, p: string, body?: unknown) => {
    let res: Response;
    try {
      res = await fetch(`${server.url}${p}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    } catch (e) {
      throw new CliExit(EXIT.failure, `A Basin server (pid ${server.pid}) holds this project's warehouse but does not answer at ${server.url} (${(e as Error).message}). Stop it or retry.`);
    }
    const json = (await res.json().catch(() => ({}))) as any;
    if (res.status === 401 || res.status === 403) throw new CliExit(EXIT.failure, `The running Basin server refused the request (${res.status}); set BASIN_API_KEY to an API key with the source.sync permission.`);
    if (!res.ok) throw new CliExit(EXIT.failure, `basin sync: ${json?.error?.message ?? `HTTP ${res.status}`}`);
    return json;
  };
  out(`A Basin server is running for this project (pid ${server.pid}, ${server.url}); syncing through its API.`);
  const started = await call('POST', '/api/sync/trigger', { sources: names, full_refresh: fullRefresh });
  for (const s of started.skipped ?? []) out(`${s.source}: already syncing on the server; skipped`);
  const pending = new Map<string, SyncRecord>((started.started as SyncRecord[]).map((r) => [r.id, r]));
  const done: SyncRecord[] = [];
  while (pending.size) {
    await sleep(500);
    for (const id of [...pending.keys()]) {
      const r = (await call('GET', `/api/sync/status/${id}`)) as SyncRecord;
      if (r.status === 'running') {
        if (r.rows !== pending.get(id)!.rows) out(`${r.source}: ${r.rows} rows...`);
        pending.set(id, r);
        continue;
      }
      pending.delete(id);
      done.push(r);
      out(summary(r));
    }
  }
  return done;
}

/** No server: open the project ourselves, with a progress bar per resource. */
async function syncInProcess(cli: CliContext, projectDir: string, names: string[] | null, fullRefresh: boolean): Promise<SyncRecord[]> {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  const bootStart = performance.now();
  // no request is served here: the plugins' routes are not added to fastify (every hook, listener and
  // service of the sync registers as in a server), and the serving copy is left for its first reader
  // (the next server start or query publishes it; a copy nobody reads before the next write is never made)
  const app = await cli.boot({ projectDir, logger: false, deferRoutes: true, servingCopy: 'on_read', openWarehouse: true });
  const bootMs = performance.now() - bootStart;
  const phases = new Map<string, Partial<Record<SyncPhase, number>>>();
  let records: SyncRecord[] = [];
  try {
    const engine = app.resolve(createServiceRef<SyncEngineImpl>({ id: 'syncEngine' }));
    const all = configuredSources(app.config);
    const wanted = names ?? all.filter((s) => s.enabled !== false).map((s) => s.name);
    const unknown = wanted.filter((n) => !all.some((s) => s.name === n));
    if (unknown.length) throw new CliExit(EXIT.failure, `basin sync: unknown source(s) ${unknown.join(', ')}; configured: ${all.map((s) => s.name).join(', ') || 'none'}.`);
    if (!wanted.length) {
      out('No enabled sources to sync (add one with "basin source add").');
      return records;
    }
    const tty = !!(cli.stdout as NodeJS.WriteStream).isTTY;
    // loaded only when a terminal shows bars: every command (and the server) boots this plugin
    const cliProgress = tty ? (await import('cli-progress')).default : null;
    const multibar = cliProgress
      ? new cliProgress.MultiBar(
          { format: ' {source} {resource} | {value} rows | {speed} rows/s', hideCursor: true, clearOnComplete: false, stream: cli.stdout as NodeJS.WriteStream },
          cliProgress.Presets.shades_classic,
        )
      : null;
    const bars = new Map<string, cliProgressTypes.SingleBar>();
    const t0 = Date.now();
    const ids = wanted.map((name) =>
      engine.start(name, {
        fullRefresh,
        trigger: 'cli',
        onPhase: (phase, ms) => phases.set(name, { ...phases.get(name), [phase]: ms }),
        onProgress: (p) => {
          const key = `${name}/${p.resource}`;
          const speed = Math.round(p.totalRows / Math.max(0.001, (Date.now() - t0) / 1000));
          if (multibar) {
            let bar = bars.get(key);
            if (!bar) bars.set(key, (bar = multibar.create(0, 0, { source: name, resource: p.resource, speed })));
            bar.setTotal(p.rows);
            bar.update(p.rows, { speed });
          } else out(`${name} ${p.resource}: ${p.rows} rows (${speed} rows/s)`);
        },
      }).id,
    );
    records = await Promise.all(ids.map((id) => engine.wait(id)));
    multibar?.stop();
    for (const r of records) out(summary(r));
    await engine.idle();
  } finally {
    const closeStart = performance.now();
    await app.close();
    // where the time went, phase by phase, once the warehouse is closed (its last checkpoint counted)
    const times: RunTimes = { startMs: bootStart, openMs: bootMs, closeMs: performance.now() - closeStart, totalMs: performance.now() };
    for (const r of records) if (r.status === 'succeeded' || r.status === 'empty') out(phaseLine(r, times, phases.get(r.source) ?? {}));
  }
  return records;
}

export function registerSyncCommand(cli: CliContext): void {
  cli.program
    .command('sync')
    .argument('[sources...]', 'sources to sync (default: every enabled source)')
    .option('--full-refresh', 'reload everything and reset incremental state', false)
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Load data from sources into the warehouse')
    .action(async (sources: string[], o: { fullRefresh: boolean; project: string }) => {
      const projectDir = path.resolve(o.project);
      const server = runningServer(projectDir);
      let records: SyncRecord[];
      if (server) {
        let names = sources;
        if (!names.length) {
          const res = await fetch(`${server.url}/api/sources`).catch(() => null);
          if (!res?.ok) throw new CliExit(EXIT.failure, `A Basin server (pid ${server.pid}) holds this project's warehouse but does not answer at ${server.url}. Stop it or retry.`);
          names = ((await res.json()) as Array<{ name: string; enabled: boolean }>).filter((s) => s.enabled).map((s) => s.name);
        }
        records = names.length ? await syncThroughServer(cli, server, names, o.fullRefresh) : [];
      } else {
        records = await syncInProcess(cli, projectDir, sources.length ? sources : null, o.fullRefresh);
      }
      const failed = records.filter((r) => r.status === 'failed' || r.status === 'cancelled');
      if (failed.length) throw new CliExit(EXIT.failure, `${failed.length} of ${records.length} sync(s) failed.`);
    });
}
