import type { Schedule } from './config.js';
import type { SyncEngine } from '@basin/plugin-sync/contract';
import type { TxRunner } from '@basin/plugin-transform/contract';
import { projectPython, resolveScript, runScript } from './script.js';
import type { ScheduleJobRunner } from './contract.js';

export interface WorkDeps {
  projectDir: string;
  syncEngine: () => SyncEngine | undefined;
  txRunner: () => TxRunner | undefined;
  /** sources with a governance attention flag (their models are skipped), when governance is installed */
  attentionSources: () => Promise<Set<string>>;
  /** runners of schedule types other plugins own (scheduleJobTypesPoint) */
  jobType: (type: string) => ScheduleJobRunner | undefined;
}
export interface WorkContext {
  schedule: Schedule;
  signal: AbortSignal;
  log: (text: string) => void;
}
export interface WorkResult {
  rows: number | null;
  error: string | null;
}

const TX_COMMANDS = new Set(['run', 'build', 'test']);

/** Splits a tx_command such as `build --select "tag:nightly"` into words (double or single quotes group). */
export function splitCommand(cmd: string): string[] {
  const out: string[] = [];
  for (const m of cmd.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** Runs one job's work by schedule type. Failures come back as `error`; an abort rejects with the signal's reason. */
export async function runWork(deps: WorkDeps, ctx: WorkContext): Promise<WorkResult> {
  const s = ctx.schedule;
  switch (s.type) {
    case 'sync':
    case 'sync_only':
      return runSyncs(deps, ctx, s.type === 'sync');
    case 'tx':
      return runTx(deps, ctx, splitCommand(s.tx_command ?? 'run'), []);
    case 'script':
      return runScriptJob(deps, ctx);
    case 'backup': {
      const runner = deps.jobType(s.type);
      if (!runner) return { rows: null, error: 'the backups plugin is not installed, so this backup cannot run' };
      return runner.run(ctx);
    }
  }
}

function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

async function runSyncs(deps: WorkDeps, ctx: WorkContext, thenTx: boolean): Promise<WorkResult> {
  const engine = deps.syncEngine();
  if (!engine) return { rows: null, error: 'the sync plugin is not installed, so sources cannot be synced' };
  const sources = ctx.schedule.sources ?? [];
  const failed: string[] = [];
  const problems: string[] = [];
  let rows = 0;
  for (const source of sources) {
    throwIfAborted(ctx.signal);
    let id: string;
    try {
      id = engine.start(source, { trigger: 'schedule', schedule: ctx.schedule.name, signal: ctx.signal }).id;
    } catch (e) {
      failed.push(source);
      problems.push(`${source}: ${(e as Error).message}`);
      ctx.log(`sync ${source}: not started: ${(e as Error).message}\n`);
      continue;
    }
    ctx.log(`sync ${source}: started (${id})\n`);
    const cancel = () => engine.cancel(id);
    ctx.signal.addEventListener('abort', cancel, { once: true });
    try {
      const rec = await engine.wait(id);
      rows += rec.rows ?? 0;
      ctx.log(`sync ${source}: ${rec.status}, ${rec.rows ?? 0} rows${rec.error ? `: ${rec.error}` : ''}\n`);
      if (rec.status === 'failed' || rec.status === 'cancelled') {
        failed.push(source);
        problems.push(`${source}: ${rec.error ?? rec.status}`);
      }
    } finally {
      ctx.signal.removeEventListener('abort', cancel);
    }
  }
  throwIfAborted(ctx.signal);
  // the transform plugin's post-sync auto run skips schedule-triggered syncs, so a `sync` schedule runs
  // dbt itself (once, after all its sources) and a `sync_only` schedule runs none
  if (thenTx && failed.length < sources.length) {
    let flagged = new Set<string>();
    try {
      flagged = await deps.attentionSources();
    } catch (e) {
      ctx.log(`could not read attention flags (${(e as Error).message}); running every model\n`);
    }
    const tx = await runTx(deps, ctx, ['run'], [...new Set([...failed, ...flagged])].sort());
    if (tx.error) problems.push(`transformations: ${tx.error}`);
  }
  return { rows, error: problems.length ? problems.join('; ') : null };
}

async function runTx(deps: WorkDeps, ctx: WorkContext, words: string[], excludeSources: string[]): Promise<WorkResult> {
  const tx = deps.txRunner();
  if (!tx) {
    // a sync schedule without the transform plugin still loads data; a tx schedule has nothing to do
    if (ctx.schedule.type === 'tx') return { rows: null, error: 'the transform plugin is not installed, so dbt cannot run' };
    ctx.log('transformations skipped: the transform plugin is not installed\n');
    return { rows: null, error: null };
  }
  const [first, ...rest] = words;
  const command = first && TX_COMMANDS.has(first) ? (first as 'run' | 'build' | 'test') : undefined;
  const args = command ? rest : words;
  ctx.log(`dbt ${words.join(' ')}: started\n`);
  const rec = await tx.run({ command, args, trigger: 'schedule', schedule: ctx.schedule.name, signal: ctx.signal, excludeSources });
  throwIfAborted(ctx.signal);
  const rows = rec.models.reduce((n, m) => n + (m.rows_affected ?? 0), 0);
  ctx.log(`dbt ${words.join(' ')}: ${rec.status} (${rec.models.length} models)${rec.error ? `: ${rec.error}` : ''}\n`);
  return { rows, error: rec.status === 'succeeded' ? null : rec.error ?? `dbt ${rec.status}` };
}

async function runScriptJob(deps: WorkDeps, ctx: WorkContext): Promise<WorkResult> {
  const script = resolveScript(deps.projectDir, ctx.schedule.script_path ?? '');
  const python = projectPython(deps.projectDir);
  const r = await runScript({ python, script, cwd: deps.projectDir, signal: ctx.signal, log: ctx.log, env: { BASIN_PROJECT_DIR: deps.projectDir, BASIN_SCHEDULE: ctx.schedule.name } });
  throwIfAborted(ctx.signal);
  if (r.exitCode === 0) return { rows: null, error: null };
  return { rows: null, error: r.signal ? `script killed by ${r.signal}` : `script exited with code ${r.exitCode}` };
}
