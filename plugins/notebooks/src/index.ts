import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { companionVenvDoctorCheck, companionVenvOf, coreServices, createServiceRef, definePlugin, type PluginContext } from '@basin/core';
import { registerNotebookCommands } from './cli.js';
import { NotebooksSection } from './config.js';
import { LockStore } from './locks.js';
import { registerNotebookProxy } from './proxy.js';
import { registerNotebookRoutes } from './routes.js';
import { NotebookServers } from './servers.js';
import { NotebookService } from './service.js';
import { marimoVenv, marimoVenvFor } from './venv.js';
import { notebookPermissions } from './permissions.js';

/** a page module of this plugin (served by the web plugin with its folder, ctx.page) */
const uiFile = (name: string): string => fileURLToPath(new URL(`../ui/${name}`, import.meta.url));

export { NotebookService, type NotebookRecord } from './service.js';
export { marimoVenv, marimoVenvFor, NOTEBOOK_REQUIREMENTS, NOTEBOOK_SERVER_REQUIREMENTS } from './venv.js';
export { NotebookServers } from './servers.js';
export { TEMPLATES } from './templates.js';

/** How often expired locks and idle servers are swept (their servers stopped). */
const SWEEP_MS = 15_000;

/** the notebook service (this plugin's own; tests read it) */
const notebooksRef = createServiceRef<NotebookService>({ id: 'notebooks' });

/** marimo notebooks in the project's notebooks/ folder, with per-notebook locks and servers (issue 14). */
export default definePlugin({
  name: 'notebooks',
  permissions: Object.values(notebookPermissions),
  configSections: [{ section: 'notebooks', schema: NotebooksSection }],
  commands: registerNotebookCommands,
  doctor: async (d) => [companionVenvDoctorCheck(await companionVenvOf(d.config, marimoVenvFor), marimoVenv, d.projectDir)],
  async register(ctx: PluginContext) {
    ctx.page({ path: '/notebooks', title: 'Notebooks', permission: 'notebooks.view', section: 'Operate', order: 20, file: uiFile('notebooks.js') });
    const { config } = ctx;
    const section = (): NotebooksSection => ({ enabled: true, lock_minutes: 10, max_servers: 3, idle_minutes: 30, start_timeout_seconds: 90, ...(config.section<Partial<NotebooksSection>>('notebooks') ?? {}) });
    if (!section().enabled) {
      ctx.status(() => ({ name: 'notebooks', state: 'stopped', detail: 'notebooks.enabled is false in .basin/project.yml' }));
      return;
    }
    // a server warehouse (issue 22): notebooks also get its read-only connection, with SQLAlchemy and the driver in the venv
    const client = ctx.resolve(coreServices.warehouseClient);
    const connection = () => (client.capabilities.servingCopy ? null : client.readOnlyConnection());
    const projectVenv = marimoVenvFor(connection()?.drivers);
    const venv = projectVenv.locate(config.projectDir);
    let installing: Promise<string> | null = null;
    const marimo = (): Promise<string> => {
      if (projectVenv.ready(venv.dir)) return Promise.resolve(projectVenv.executable(venv.dir));
      installing ??= projectVenv
        .ensure(venv.dir, (l) => ctx.log.info(`[marimo venv] ${l}`))
        .then(() => projectVenv.executable(venv.dir))
        .finally(() => (installing = null));
      return installing;
    };
    const warehouse = ctx.resolve(coreServices.warehouse);
    const dir = path.join(config.projectDir, 'notebooks');
    const servers = new NotebookServers({
      marimo,
      projectDir: config.projectDir,
      notebookFile: (name) => path.join(dir, `${name}.py`),
      servingPath: () => warehouse.servingPath,
      warehouse: connection,
      basePort: () => config.platform.notebook_port,
      maxServers: () => section().max_servers,
      startTimeoutMs: () => section().start_timeout_seconds * 1000,
      log: ctx.log,
      now: () => ctx.clock.now(),
    });
    const service = new NotebookService({
      dir,
      projectDir: config.projectDir,
      locks: new LockStore(ctx.resolve(coreServices.stateDb)),
      servers,
      clock: ctx.clock,
      lockTtlMs: () => section().lock_minutes * 60_000,
      idleMs: () => section().idle_minutes * 60_000,
      log: ctx.log,
    });
    ctx.provide(notebooksRef, service);
    registerNotebookRoutes(ctx, () => service);
    await registerNotebookProxy(ctx, { service: () => service, servers });

    ctx.status(() => {
      const running = servers.list().map((s) => ({ name: s.name, pid: s.pid, started_at: s.started_at }));
      if (!projectVenv.ready(venv.dir)) return { name: 'notebooks', state: installing ? 'starting' : 'not_installed', detail: `run \`basin notebooks setup\` (virtualenv: ${venv.dir})`, running };
      return { name: 'notebooks', state: 'ok', url: '/notebooks', running, max_servers: section().max_servers };
    });

    let sweep: NodeJS.Timeout | null = null;
    ctx.onStart(() => {
      sweep = setInterval(() => void service.expire().catch((e) => ctx.log.warn({ err: e }, 'notebook lock sweep failed')), SWEEP_MS);
      sweep.unref();
    });
    ctx.onStop(async () => {
      if (sweep) clearInterval(sweep);
      await servers.stopAll();
    });
  },
});
