import path from 'node:path';
import { asValue, definePlugin, type PluginContext } from '@basin/core';
import { AutoRunCoalescer, realTimer, type SetTimer } from './auto-run.js';
import { registerTxCommands } from './commands.js';
import { TxSection } from './config.js';
import { FAILED_STATUSES, isProgressLine } from './dbt-log.js';
import { TxHistory } from './history.js';
import { registerRoutes } from './routes.js';
import { DbtRunner } from './runner.js';
import { generateStaging, stagingNotes } from './staging.js';
import { StagingStore } from './staging-store.js';
import { dbtExecutable, dbtVersion, ensureVenv, locateVenv, venvReady } from './venv.js';

export * from './types.js';
export { DbtRunner } from './runner.js';
export { AutoRunCoalescer, type SetTimer } from './auto-run.js';
export { generateStaging, stagingModelName, type StagingReport } from './staging.js';
export { TX_REQUIREMENTS, ensureVenv, locateVenv, dbtExecutable, pythonExecutable, venvReady } from './venv.js';

interface SyncCompleted {
  source: string;
  sync_id?: string;
  trigger?: string;
  schedule?: string | null;
}
interface Governance {
  attentionSources(): Promise<Set<string>>;
}

/** Transformations with dbt: runs, staging generation, auto-run after syncs, docs (issue 6). */
export default definePlugin({
  name: 'transform',
  optionalDependsOn: ['governance', 'sync'],
  configFiles: [
    // dbt reads these itself; Basin only checks they are present
    { id: 'tx-profiles', path: 'tx/profiles.yml', format: 'presence' },
    { id: 'tx-project', path: 'tx/dbt_project.yml', format: 'presence' },
  ],
  configSections: [{ section: 'tx', schema: TxSection }],
  commands: registerTxCommands,
  register(ctx: PluginContext) {
    const { config } = ctx;
    const txDir = config.resolve(config.platform.tx_project_dir);
    const section = (): TxSection => ({ timeout_seconds: 3600, docs_after_run: true, ...(config.section<Partial<TxSection>>('tx') ?? {}) });
    const venv = locateVenv(config.projectDir);

    let installing: Promise<string> | null = null;
    const dbt = (): Promise<string> => {
      if (venvReady(venv.dir)) return Promise.resolve(dbtExecutable(venv.dir));
      installing ??= ensureVenv(venv.dir, (l) => ctx.log.info(`[dbt venv] ${l}`))
        .then(() => dbtExecutable(venv.dir))
        .finally(() => (installing = null));
      return installing;
    };

    const history = new TxHistory(ctx.resolve('stateDb'));
    const staging = new StagingStore(ctx.resolve('stateDb'));
    const runner = new DbtRunner({
      warehouse: ctx.resolve('warehouse'),
      history,
      events: ctx.events,
      clock: ctx.clock,
      log: ctx.log,
      txDir,
      displayDir: path.relative(config.projectDir, txDir) || '.',
      dbt,
      timeoutMs: () => section().timeout_seconds * 1000,
      docsAfterRun: () => section().docs_after_run,
    });
    const autoRun = new AutoRunCoalescer({
      run: (o) => runner.run(o),
      coalesceSeconds: () => config.platform.tx_coalesce_seconds,
      attentionSources: async () => (await ctx.tryResolve<Governance>('governance')?.attentionSources()) ?? new Set(),
      timer: () => ctx.tryResolve<SetTimer>('txTimer') ?? realTimer,
      log: ctx.log,
    });
    ctx.provide('txRunner', asValue(runner));
    ctx.provide('txAutoRun', asValue(autoRun));
    ctx.provide('txStaging', asValue(staging));
    ctx.events.declare('tx_run_started', 'tx_run_completed');

    ctx.events.on('sync_completed', async (raw) => {
      const p = raw as unknown as SyncCompleted;
      if (!p?.source) return;
      const report = await generateStaging({ warehouse: ctx.resolve('warehouse'), txDir, source: p.source, now: ctx.clock.now() });
      staging.save(report);
      const notes = stagingNotes(report);
      for (const n of notes) ctx.log.warn(n);
      if (report.created.length) ctx.log.info({ source: p.source, models: report.created }, 'staging models generated');
      // a scheduled sync belongs to its schedule: a `sync` schedule runs dbt itself, a `sync_only` one must not
      if (config.platform.auto_tx && p.trigger !== 'schedule') autoRun.request(p.source, { schedule: p.schedule ?? null, notes });
      else if (!serving && ctx.launchedByCli && report.created.length) {
        ctx.notice(`Generated staging model(s) ${report.created.join(', ')}; platform.auto_tx is off, so build them with: basin tx run`);
      }
    });

    // A one-shot CLI command (`basin sync` without a server) never runs onStart: its auto run happens as the
    // command ends, in this process, so the staging models it generated are built before the warehouse closes.
    let serving = false;
    const runPendingInCli = async () => {
      await ctx.events.idle(); // the sync_completed handlers above (staging generation) finish first
      const sources = autoRun.waiting;
      if (serving || !ctx.launchedByCli || !sources.length) return;
      ctx.notice(`Running dbt after the sync of ${sources.join(', ')} (platform.auto_tx; turn off with auto_tx: false)...`);
      const stop = runner.onLine((l, _id) => {
        if (isProgressLine(l)) ctx.notice(`  ${l.msg}`);
      });
      try {
        const rec = await autoRun.flush();
        if (rec) ctx.notice(`dbt run ${rec.id}: ${rec.status}${rec.error ? ` (${rec.error.split('\n')[0]})` : ''}`);
      } finally {
        stop();
      }
    };

    registerRoutes(ctx, { runner, history, staging, txDir: () => txDir });

    ctx.health(() => {
      const failures: Array<Record<string, unknown>> = [];
      for (const m of history.latestByNode().values()) {
        if (FAILED_STATUSES.has(m.status)) failures.push({ model: m.name, run_id: m.run_id, status: m.status, error: m.error, failed_at: m.finished_at });
      }
      const last = history.lastFinished();
      if (last?.status === 'failed' && !last.models.some((m) => FAILED_STATUSES.has(m.status))) {
        failures.push({ model: null, run_id: last.id, status: 'failed', error: last.error, failed_at: last.finished_at });
      }
      return { tx_failures: failures };
    });

    let version: string | null | undefined;
    ctx.status(() => {
      if (!venvReady(venv.dir)) return { name: 'dbt', state: installing ? 'starting' : 'not_installed', detail: `run \`basin tx setup\` (virtualenv: ${venv.dir})` };
      version ??= dbtVersion(venv.dir);
      const docsAt = runner.docsGeneratedAt;
      return {
        name: 'dbt',
        state: 'ok',
        version,
        url: '/tx-docs/',
        docs: docsAt ? { generated_at: docsAt.toISOString() } : null,
        running: runner.running?.id ?? null,
      };
    });

    ctx.onStart(() => {
      serving = true;
      history.markInterrupted(ctx.clock.now().toISOString());
      // first start installs dbt in the background; runs wait for it, the server does not
      if (!venvReady(venv.dir)) void dbt().catch((e) => ctx.log.error(`dbt is not available: ${(e as Error).message}`));
    });
    ctx.onStop(async () => {
      await runPendingInCli().catch((e) => ctx.notice(`dbt did not run after the sync: ${(e as Error).message}`));
      autoRun.stop();
      for (const id of runner.activeIds()) runner.cancel(id);
      await runner.idle();
    });
  },
});
