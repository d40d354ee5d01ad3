import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { errors, type Clock, type EventBus, type Logger, type Warehouse, type WarehouseClient } from '@basin/core';
import { serverDbtTarget } from './server-target.js';
import { readManifest, readRunResults } from './artifacts.js';
import { FAILED_STATUSES, isProgressLine, type DbtLogLine } from './dbt-log.js';
import { locateModelError, withLocation } from './error-location.js';
import { runDbt, type DbtExit } from './dbt-process.js';
import type { TxHistory } from './history.js';
import type { TxModelResult, TxRunOptions, TxRunRecord, TxRunner } from './types.js';

export interface DbtRunnerDeps {
  warehouse: Warehouse;
  /** a server warehouse (warehouse.type other than duckdb): dbt runs against it with its dbt target */
  server?: { client: WarehouseClient; profilesDir: string };
  history: TxHistory;
  events: EventBus;
  clock: Clock;
  log: Logger;
  /** the dbt project directory (tx/) */
  txDir: string;
  /** txDir as a person sees it, relative to the project (error messages name `tx/models/...`) */
  displayDir: string;
  /** resolves the dbt executable, installing the venv when needed */
  dbt: () => Promise<string>;
  timeoutMs: () => number;
  docsAfterRun: () => boolean;
}

interface Active {
  record: TxRunRecord;
  controller: AbortController;
  done: Promise<TxRunRecord>;
}

type LineListener = (line: DbtLogLine, runId: string) => void;

/** dbt's console output of recent runs, for `GET /api/tx/runs/{id}/output` (the CLI streams it) */
const OUTPUT_RUNS_KEPT = 20;
const OUTPUT_LINES_KEPT = 5000;

/**
 * The txRunner service. One dbt process at a time (runs queue in order); each dbt invocation runs
 * inside warehouse.handoff (the server closes its handle, dbt is the only writer, the server reopens);
 * results come from the structured log (live per-node events) and target/run_results.json.
 */
export class DbtRunner implements TxRunner {
  private chain: Promise<unknown> = Promise.resolve();
  private readonly active = new Map<string, Active>();
  private readonly listeners = new Set<LineListener>();
  private readonly outputs = new Map<string, string[]>();
  private lastDocsAt: Date | null = null;

  constructor(private readonly d: DbtRunnerDeps) {}

  get targetDir(): string {
    return path.join(this.d.txDir, 'target');
  }
  get docsGeneratedAt(): Date | null {
    if (this.lastDocsAt) return this.lastDocsAt;
    try {
      return fs.statSync(path.join(this.targetDir, 'catalog.json')).mtime;
    } catch {
      return null;
    }
  }

  /** Streams every dbt log line of every run (the CLI prints the progress lines). */
  onLine(fn: LineListener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** dbt's progress lines of a recent run from index `after` on; null when the run is unknown or too old. */
  output(id: string, after = 0): { lines: string[]; next: number } | null {
    const all = this.outputs.get(id);
    if (!all) return null;
    return { lines: all.slice(after), next: all.length };
  }

  private keepOutput(id: string): string[] {
    const lines: string[] = [];
    this.outputs.set(id, lines);
    while (this.outputs.size > OUTPUT_RUNS_KEPT) this.outputs.delete(this.outputs.keys().next().value!);
    return lines;
  }

  /** A failed model's message with the model file and line (DuckDB's LINE n is of the compiled statement). */
  private locate(message: string, uniqueId?: string): { error: string; file: string | null; line: number | null } {
    const manifest = uniqueId ? readManifest(this.targetDir) : null;
    const modelFile = uniqueId ? (manifest?.nodes?.[uniqueId] as { original_file_path?: string } | undefined)?.original_file_path : undefined;
    const loc = locateModelError({ message, txDir: this.d.txDir, targetDir: this.targetDir, displayDir: this.d.displayDir, modelFile });
    return { error: withLocation(message, loc), file: loc?.file ?? null, line: loc?.line ?? null };
  }

  /** Queues a run and returns its record at once (status 'queued', or 'running' when nothing was ahead). */
  start(opts: TxRunOptions = {}): TxRunRecord {
    const command = opts.command ?? 'run';
    if (!['run', 'build', 'test', 'seed', 'snapshot'].includes(command)) throw errors.badRequest(`unknown dbt command "${command}"; use run, build, test, seed or snapshot`);
    const select = opts.select?.trim() ? (opts.cascade === true && !/[+@]/.test(opts.select) ? `${opts.select.trim()}+` : opts.select.trim()) : null;
    const record: TxRunRecord = {
      id: `tx_${crypto.randomBytes(8).toString('hex')}`,
      status: 'queued',
      command,
      selector: select,
      excluded_sources: [...new Set(opts.excludeSources ?? [])].sort(),
      queued_at: this.d.clock.now().toISOString(),
      started_at: null,
      finished_at: null,
      trigger: opts.trigger ?? 'api',
      schedule: opts.schedule ?? null,
      models: [],
      error: null,
      notes: opts.notes ?? [],
      docs_generated: false,
    };
    // nothing ahead of it: it starts now (callers see 'running', not 'queued')
    if (!this.active.size) {
      record.status = 'running';
      record.started_at = record.queued_at;
    }
    this.d.history.save(record);
    const controller = new AbortController();
    if (opts.signal) {
      if (opts.signal.aborted) controller.abort();
      else opts.signal.addEventListener('abort', () => this.cancel(record.id), { once: true });
    }
    const done = this.chain.then(() => this.execute(record, controller.signal, opts.args ?? []));
    this.chain = done.catch(() => undefined);
    const active: Active = { record, controller, done };
    this.active.set(record.id, active);
    void done.finally(() => this.active.delete(record.id)).catch(() => undefined);
    return { ...record };
  }

  run(opts: TxRunOptions = {}): Promise<TxRunRecord> {
    return this.wait(this.start(opts).id);
  }

  async wait(id: string): Promise<TxRunRecord> {
    const a = this.active.get(id);
    if (a) return a.done;
    const r = this.d.history.get(id);
    if (!r) throw errors.notFound('Transformation run');
    return r;
  }

  get(id: string): TxRunRecord | undefined {
    const a = this.active.get(id);
    return a ? { ...a.record, models: [...a.record.models] } : this.d.history.get(id);
  }

  /** The run dbt is executing now, if any. */
  get running(): TxRunRecord | undefined {
    return [...this.active.values()].find((a) => a.record.status === 'running')?.record;
  }

  cancel(id: string): boolean {
    const a = this.active.get(id);
    if (!a || a.controller.signal.aborted) return false;
    a.controller.abort();
    return true;
  }

  activeIds(): string[] {
    return [...this.active.keys()];
  }

  /** Waits for every queued run (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.active.size) await Promise.allSettled([...this.active.values()].map((a) => a.done));
  }

  private now = () => this.d.clock.now().toISOString();

  private async execute(rec: TxRunRecord, signal: AbortSignal, extraArgs: string[]): Promise<TxRunRecord> {
    const finish = (status: TxRunRecord['status'], error: string | null) => {
      rec.status = status;
      rec.error = error;
      rec.finished_at = this.now();
      this.d.history.saveModels(rec.id, rec.finished_at, rec.models);
      this.d.history.save(rec);
      return { ...rec };
    };
    if (signal.aborted) return finish('cancelled', 'cancelled before it started');
    if (rec.status !== 'running') {
      rec.status = 'running';
      rec.started_at = this.now();
      this.d.history.save(rec);
    }

    let dbt: string;
    try {
      dbt = await this.d.dbt();
    } catch (e) {
      return finish('failed', (e as Error).message);
    }
    const args = [rec.command];
    if (rec.selector) args.push('--select', ...rec.selector.split(/\s+/));
    if (rec.excluded_sources.length) args.push('--exclude', ...rec.excluded_sources.map((s) => `source:${s}+`));
    args.push(...extraArgs);

    const live = new Map<string, TxModelResult>();
    const located = new Map<string, ReturnType<DbtRunner['locate']>>();
    const errorLines: string[] = [];
    const output = this.keepOutput(rec.id);
    const onLine = (l: DbtLogLine) => {
      for (const fn of this.listeners) fn(l, rec.id);
      if (isProgressLine(l) && output.length < OUTPUT_LINES_KEPT) output.push(l.msg);
      if (l.level === 'error' && l.msg.trim() && !l.node) errorLines.push(l.msg.trim());
      if (!l.node) return;
      if (l.name === 'NodeStart') {
        void this.d.events.emit('tx_run_started', { model: l.node.name, run_id: rec.id });
      } else if (l.name === 'NodeFinished' && l.result) {
        const failed = FAILED_STATUSES.has(l.result.status);
        const where = failed && l.result.message ? this.locate(l.result.message, l.node.uniqueId) : null;
        if (where) located.set(l.node.uniqueId, where);
        live.set(l.node.uniqueId, {
          name: l.node.name,
          unique_id: l.node.uniqueId,
          resource_type: l.node.resourceType,
          status: l.result.status,
          execution_time: l.result.executionTime,
          rows_affected: null,
          error: failed ? (where?.error ?? l.result.message) : null,
          ...(where?.file ? { file: where.file, line: where.line } : {}),
        });
        if (where?.file) output.push(`  ${where.error.split('\n')[0]}`);
        void this.d.events.emit('tx_run_completed', {
          model: l.node.name,
          run_id: rec.id,
          status: l.result.status,
          ...(failed && l.result.message ? { error: where?.error ?? l.result.message } : {}),
          ...(where?.file ? { file: where.file, line: where.line ?? undefined } : {}),
        });
      }
    };

    let exit: DbtExit;
    let results: TxModelResult[] | null = null;
    const runResults = path.join(this.targetDir, 'run_results.json');
    try {
      exit = await this.handToDbt(async () => {
        fs.rmSync(runResults, { force: true }); // never read a previous invocation's results
        const x = await runDbt({ dbt, projectDir: this.d.txDir, args, dbPath: this.d.warehouse.dbPath, target: this.serverTarget(), timeoutMs: this.d.timeoutMs(), signal, onLine });
        // read before `docs generate`, which rewrites run_results.json
        results = readRunResults(this.targetDir, readManifest(this.targetDir));
        if (x.code === 0 && !x.stopped && rec.command !== 'test' && this.d.docsAfterRun()) {
          rec.docs_generated = await this.generateDocsInHandoff(dbt, signal);
        }
        return x;
      });
    } catch (e) {
      this.d.log.error({ err: e, run_id: rec.id }, 'dbt run could not be started');
      return finish('failed', `the warehouse could not be handed to dbt: ${(e as Error).message}`);
    }
    rec.models = results ?? [...live.values()];
    for (const m of rec.models) {
      if (!m.error || !FAILED_STATUSES.has(m.status) || m.file) continue;
      const where = (m.unique_id && located.get(m.unique_id)) || this.locate(m.error, m.unique_id);
      if (!where.file) continue;
      m.error = where.error;
      m.file = where.file;
      m.line = where.line;
    }
    await this.fillRowCounts(rec.models);

    let status: TxRunRecord['status'];
    let error: string | null = null;
    if (exit.stopped === 'cancelled') {
      status = 'cancelled';
      error = 'cancelled; dbt was stopped';
    } else if (exit.stopped === 'timeout') {
      status = 'failed';
      error = `dbt did not finish within ${Math.round(this.d.timeoutMs() / 1000)} s and was stopped (tx.timeout_seconds)`;
    } else if (exit.code === 0) {
      status = 'succeeded';
    } else {
      status = 'failed';
      const failedNodes = rec.models.filter((m) => FAILED_STATUSES.has(m.status));
      error = failedNodes.length
        ? `${failedNodes.length} node(s) failed: ${failedNodes.map((m) => m.name).join(', ')}`
        : (errorLines.slice(-3).join('\n') || exit.stderrTail.split('\n').slice(-8).join('\n') || `dbt exited with code ${exit.code}`);
    }
    // models that did succeed are in the warehouse now: publish them even when another model failed
    if (rec.models.some((m) => m.status === 'success') && status !== 'cancelled') {
      try {
        await this.d.warehouse.publishServingCopy();
      } catch (e) {
        this.d.log.error({ err: e }, 'publishing the serving copy after a dbt run failed');
        rec.notes.push(`serving copy not published: ${(e as Error).message}`);
      }
    }
    this.d.log.info({ run_id: rec.id, status, models: rec.models.length }, 'dbt run finished');
    return finish(status, error);
  }

  /** DuckDB: the file is handed to dbt (closed, reopened after); a server warehouse takes dbt beside Basin */
  private handToDbt<T>(fn: () => Promise<T>): Promise<T> {
    return this.d.server ? this.d.server.client.exclusive(fn) : this.d.warehouse.handoff(fn);
  }

  /** the profiles.yml and env of a server warehouse's dbt target (written before each invocation) */
  private serverTarget(): { profilesDir: string; env: Record<string, string> } | undefined {
    return this.d.server ? serverDbtTarget(this.d.server.client, this.d.txDir, this.d.server.profilesDir) : undefined;
  }

  /** `dbt docs generate` while the runner still holds the handoff (catalog.json needs the warehouse). */
  private async generateDocsInHandoff(dbt: string, signal: AbortSignal): Promise<boolean> {
    const x = await runDbt({ dbt, projectDir: this.d.txDir, args: ['docs', 'generate'], dbPath: this.d.warehouse.dbPath, target: this.serverTarget(), timeoutMs: this.d.timeoutMs(), signal });
    if (x.code === 0) this.lastDocsAt = this.d.clock.now();
    else this.d.log.warn({ code: x.code, stderr: x.stderrTail.slice(-500) }, 'dbt docs generate failed');
    return x.code === 0;
  }

  /** Runs `dbt docs generate` alone (CLI `basin tx docs`), queued like a run. */
  generateDocs(): Promise<boolean> {
    const done = this.chain.then(async () => {
      const dbt = await this.d.dbt();
      return this.handToDbt(() => this.generateDocsInHandoff(dbt, new AbortController().signal));
    });
    this.chain = done.catch(() => undefined);
    return done;
  }

  /** dbt-duckdb reports no rows_affected: count the rows of each table the run built (cheap in DuckDB). */
  private async fillRowCounts(models: TxModelResult[]): Promise<void> {
    const manifest = readManifest(this.targetDir);
    for (const m of models) {
      if (m.status !== 'success' || m.rows_affected !== null || !m.unique_id) continue;
      const node = manifest?.nodes?.[m.unique_id];
      const mat = node?.config?.materialized;
      if (!node?.relation_name || (mat !== 'table' && mat !== 'incremental')) continue;
      try {
        const [row] = await this.d.warehouse.query<{ n: string | number }>(`SELECT count(*) AS n FROM ${node.relation_name}`);
        m.rows_affected = Number(row?.n ?? 0);
      } catch {
        /* the relation may be named differently; leave null */
      }
    }
  }
}
