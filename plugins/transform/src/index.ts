import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { coreServices, definePlugin, type PluginContext } from '@basin/core';
import { governanceRef } from '@basin/plugin-governance/contract';
import type { SyncCompleted } from '@basin/plugin-sync/contract';
import { AutoRunCoalescer, realTimer } from './auto-run.js';
import { txRunnerRef, txTimerRef, txPermissions } from './contract.js';
import { txInternal } from './internal-services.js';
import { registerTxCommands } from './commands.js';
import { TxSection } from './config.js';
import { FAILED_STATUSES, isProgressLine } from './dbt-log.js';
import { TxHistory } from './history.js';
import { registerRoutes } from './routes.js';
import { DbtRunner } from './runner.js';
import { generateStaging, stagingNotes } from './staging.js';
import { StagingStore } from './staging-store.js';
import { dbtExecutable, dbtVersion, ensureVenv, locateVenv, txVenv, venvReady } from './venv.js';
import { registerTxExtraCommands } from './cli/register.js';

/** a page module of this plugin (served by the web plugin with its folder, ctx.page) */
const uiFile = (name: string): string => fileURLToPath(new URL(`../ui/${name}`, import.meta.url));

export * from './types.js';
export * from './contract.js';
export { txInternal } from './internal-services.js';
export { DbtRunner } from './runner.js';
export { AutoRunCoalescer, type SetTimer } from './auto-run.js';
export { generateStaging, sourcesYaml, stagingModelName, type StagingReport } from './staging.js';
export { TX_REQUIREMENTS, ensureVenv, locateVenv, dbtExecutable, pythonExecutable, venvReady } from './venv.js';

/** Transformations with dbt: runs, staging generation, auto-run after syncs, docs (issue 6). */
export default definePlugin({
  name: 'transform',
  permissions: Object.values(txPermissions),
  optionalDependsOn: ['governance', 'sync'],
  configFiles: [
    // dbt reads these itself; Basin only checks they are present
    { id: 'tx-profiles', path: 'tx/profiles.yml', format: 'presence' },
    { id: 'tx-project', path: 'tx/dbt_project.yml', format: 'presence' },
  ],
  configSections: [{ section: 'tx', schema: TxSection }],
  commands(cli) {
    registerTxCommands(cli);
    registerTxExtraCommands(cli);
  },
  doctor: (d) => [txVenv.doctorCheck(d.projectDir)],
  register(ctx: PluginContext) {
    ctx.page({ path: '/models', title: 'Models', section: 'Data', order: 30, file: uiFile('models.js') });
    const { config } = ctx;
    const txDir = config.resolve(config.platform.tx_project_dir);
    const section = (): TxSection => ({ timeout_seconds: 3600, docs_after_run: true, ...(config.section<Partial<TxSection>>('tx') ?? {}) });
    const venv = locateVenv(config.projectDir);
    // a server warehouse brings its own dbt adapter venv and target (issue 22); DuckDB keeps this plugin's
    const client = ctx.resolve(coreServices.warehouseClient);
    let installing: Promise<string> | null = null;
    const dbt = (): Promise<string> => {
      // asked when dbt runs, not at start: a target may need a secret (Trino's password) the start does not
      const server = client.capabilities.servingCopy ? undefined : client.dbtTarget();
      if (server && !server.venv) return Promise.reject(new Error(`The ${server.adapter} warehouse names no dbt venv in its dbt target; its backend package must set one.`));
      const serverVenv = server?.venv;
      if (serverVenv) {
        const dir = serverVenv.locate(config.projectDir).dir;
        if (serverVenv.ready(dir)) return Promise.resolve(serverVenv.executable(dir));
        installing ??= serverVenv
          .ensure(dir, (l) => ctx.log.info(`[dbt venv] ${l}`))
          .then(() => serverVenv.executable(dir))
          .finally(() => (installing = null));
        return installing;
      }
      if (venvReady(venv.dir)) return Promise.resolve(dbtExecutable(venv.dir));
      installing ??= ensureVenv(venv.dir, (l) => ctx.log.info(`[dbt venv] ${l}`))
        .then(() => dbtExecutable(venv.dir))
        .finally(() => (installing = null));
      return installing;
    };

    const history = new TxHistory(ctx.resolve(coreServices.stateDb));
    const staging = new StagingStore(ctx.resolve(coreServices.stateDb));
    const runner = new DbtRunner({
      warehouse: ctx.resolve(coreServices.warehouse),
      server: client.capabilities.servingCopy ? undefined : { client, profilesDir: config.resolve('.basin', 'tmp', 'dbt-profiles') },
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
      attentionSources: async () => (await ctx.tryResolve(governanceRef)?.attentionSources()) ?? new Set(),
      timer: () => ctx.tryResolve(txTimerRef) ?? realTimer,
      log: ctx.log,
    });
    ctx.provide(txRunnerRef, runner);
    ctx.provide(txInternal.autoRun, autoRun);
    ctx.provide(txInternal.staging, staging);
    ctx.events.declare('tx_run_started', 'tx_run_completed');

    ctx.events.on('sync_completed', async (p: SyncCompleted) => {
      const report = await generateStaging({ warehouse: ctx.resolve(coreServices.warehouse), txDir, source: p.source, now: ctx.clock.now() });
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
        // its time: `basin sync` counts it in its `close` phase (the run happens as the command ends)
        const took = rec?.started_at && rec.finished_at ? ` in ${((Date.parse(rec.finished_at) - Date.parse(rec.started_at)) / 1000).toFixed(2)} s` : '';
        if (rec) ctx.notice(`dbt run ${rec.id}: ${rec.status}${took}${rec.error ? ` (${rec.error.split('\n')[0]})` : ''}`);
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
