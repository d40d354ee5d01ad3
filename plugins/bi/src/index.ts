import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { companionVenvDoctorCheck, companionVenvOf, coreServices, definePlugin, writeFileAtomic, type PluginContext } from '@basin/core';
import { authRef } from '@basin/plugin-auth/contract';
import type { TxRunCompleted } from '@basin/plugin-transform/contract';
import { parseDocument } from 'yaml';
import { registerBiCommands } from './cli.js';
import { biSupervisorRef, dashboardPermissions } from './contract.js';
import { BiSection } from './config.js';
import { provisionDashboards, type ProvisionResult } from './dashboards.js';
import { registerBiProxy } from './proxy.js';
import { identityOf, openSupersetSession } from './sign-in.js';
import { SupersetSupervisor } from './supervisor.js';
import { supersetVenv, supersetVenvFor } from './venv.js';

export { SupersetSupervisor, type SupersetStatus } from './supervisor.js';
export { supersetVenv, supersetVenvFor, BI_REQUIREMENTS } from './venv.js';
export { WAREHOUSE_URI_PY } from './superset-files.js';
export { supersetRole } from './roles.js';
export { readDashboardFiles, type ProvisionResult } from './dashboards.js';

const BI_COOKIE = 'bi.SESSION';
/** how long after Basin listens its Superset is launched (see onStart below) */
const SUPERSET_LAUNCH_DELAY_MS = 250;
const cookieList = (v: string | number | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v.map(String) : [String(v)]);

/** Records the warehouse's database id in .basin/bi.yml (SPEC; /api/metabase-config reads it). */
function saveDatabaseId(projectDir: string, id: number): void {
  const file = path.join(projectDir, '.basin', 'bi.yml');
  const doc = parseDocument(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  if (doc.getIn(['database', 'id']) === id) return;
  doc.setIn(['database', 'id'], id);
  writeFileAtomic(file, doc.toString(), 0o600);
}

/** Dashboards: Apache Superset started and supervised by Basin, behind /bi with single sign-on (issue 14). */
export default definePlugin({
  name: 'bi',
  permissions: Object.values(dashboardPermissions),
  // the users' Superset passwords live in auth.db (SPEC "Dashboard tool single sign-on")
  optionalDependsOn: ['auth', 'transform'],
  configSections: [{ section: 'bi', schema: BiSection }],
  commands: registerBiCommands,
  doctor: async (d) => [companionVenvDoctorCheck(await companionVenvOf(d.config, supersetVenvFor), supersetVenv, d.projectDir)],
  async register(ctx: PluginContext) {
    const { config } = ctx;
    const section = (): BiSection => ({ enabled: true, start_timeout_seconds: 300, ...(config.section<Partial<BiSection>>('bi') ?? {}) });
    if (!section().enabled) {
      ctx.status(() => ({ name: 'bi', state: 'stopped', detail: 'bi.enabled is false in .basin/project.yml' }));
      return;
    }
    const warehouse = ctx.resolve(coreServices.warehouse);
    // a server warehouse (issue 22): Superset connects to it as the read-only user, with its driver in the venv
    const client = ctx.resolve(coreServices.warehouseClient);
    const connection = () => client.readOnlyConnection();
    const projectVenv = supersetVenvFor(client.capabilities.servingCopy ? undefined : connection()?.drivers);
    const venv = projectVenv.locate(config.projectDir);

    // each user's Superset password: random, sealed in auth.db, never shown; without the auth plugin one per run
    const auth = ctx.tryResolve(authRef);
    const fallback = crypto.randomBytes(30).toString('base64url');
    const passwords = new Map<string | null, string>();
    const password = (userId: string | null): string => {
      let p = passwords.get(userId);
      if (!p) passwords.set(userId, (p = auth ? auth.companions.password(userId, 'superset') : fallback));
      return p;
    };

    let dashboards: ProvisionResult[] = [];
    // the project's dashboards/*.yml, made by a provisioning account (Admin) with a password of this run
    const provision = async (databaseId: number): Promise<void> => {
      const identity = { username: 'provisioning@basin.local', role: 'Admin' as const, password: crypto.randomBytes(30).toString('base64url') };
      const conn = client.capabilities.servingCopy ? null : connection();
      dashboards = await provisionDashboards({
        dir: path.join(config.projectDir, 'dashboards'),
        port: supervisor.port,
        secret: supervisor.proxySecret,
        identity,
        databaseId,
        ...(conn ? { schemaName: (schema: string) => conn.schemaName(schema) } : {}),
      });
      for (const d of dashboards) {
        if (d.state === 'failed') ctx.log.warn({ file: `dashboards/${d.file}`, error: d.error }, 'dashboard not provisioned');
        else if (d.state === 'created') ctx.log.info({ file: `dashboards/${d.file}`, id: d.dashboard_id }, 'dashboard provisioned');
      }
    };
    const supervisor: SupersetSupervisor = new SupersetSupervisor({
      venv: projectVenv,
      venvDir: venv.dir,
      home: path.join(config.projectDir, '.basin', 'bi'),
      port: () => config.platform.bi_port,
      servingPath: () => warehouse.servingPath,
      warehouse: connection,
      startTimeoutMs: () => section().start_timeout_seconds * 1000,
      log: ctx.log,
      onDatabaseId: (id) => saveDatabaseId(config.projectDir, id),
      afterStart: (databaseId) => provision(databaseId),
    });
    ctx.provide(biSupervisorRef, supervisor);
    // a dashboard whose tables did not exist yet (dbt had not run) is tried again once a dbt run that built
    // a model has published the serving copy (the copy Superset reads; it is replaced after the run ends)
    let retrying = false;
    let closed = false;
    const retryAfterPublish = async (): Promise<void> => {
      retrying = true;
      try {
        // a server warehouse has no copy to wait for: dbt's tables are there once the run ended
        if (!client.capabilities.servingCopy) {
          const id = supervisor.databaseId;
          if (!closed && id !== null && supervisor.current.state === 'running') await provision(id);
          return;
        }
        const mtime = () => (fs.existsSync(warehouse.servingPath) ? fs.statSync(warehouse.servingPath).mtimeMs : 0);
        const before = mtime();
        for (let i = 0; i < 900 && !closed && mtime() === before && supervisor.current.state === 'running'; i++) await new Promise((r) => setTimeout(r, 1000).unref());
        const id = supervisor.databaseId;
        if (!closed && id !== null && mtime() !== before && supervisor.current.state === 'running') await provision(id);
      } finally {
        retrying = false;
      }
    };
    // not awaited: the event bus (and shutdown, which waits for listeners) must not wait for the dbt run
    ctx.events.on('tx_run_completed', (p: TxRunCompleted) => {
      if (!retrying && !closed && p.status === 'success' && dashboards.some((d) => d.state === 'failed')) void retryAfterPublish().catch((e) => ctx.log.warn({ err: e }, 'dashboard provisioning failed'));
    });
    await registerBiProxy(ctx, { supervisor, port: () => supervisor.port, password });

    ctx.health(() => ({ bi: { ...supervisor.current, dashboards } }));
    ctx.status(() => {
      const s = supervisor.current;
      const state = s.state === 'running' ? 'running' : s.state === 'failed' ? 'error' : s.state === 'stopped' ? 'stopped' : 'starting';
      return { name: 'bi', state, url: '/bi/', started_at: s.started_at, restarts: s.restarts, ...(s.error ? { detail: s.error } : {}) };
    });

    // `basin start` runs Superset; an embedded app (tests, scripts) starts it by asking biSupervisor. Once
    // Basin listens: spawning its two Python processes (and their imports, seconds of CPU) competed with
    // the end of Basin's own start. And a moment after: the spawn and the files written before it hold this
    // thread ~10-15 ms, which the server's first requests would wait for (Superset takes seconds anyway).
    let launch: NodeJS.Timeout | null = null;
    ctx.onStart(() => {
      if (!ctx.launchedByCli) return;
      ctx.http.server.once('listening', () => {
        supervisor.announceStart();
        launch = setTimeout(() => void supervisor.start().catch(() => undefined), SUPERSET_LAUNCH_DELAY_MS); // the failure is in health
      });
    });
    ctx.onStop(() => {
      closed = true;
      if (launch) clearTimeout(launch);
      return supervisor.stop();
    });

    // /query is SQL Lab while Superset runs (otherwise the UI's own query page answers)
    ctx.http.addHook('onRequest', async (req, reply) => {
      if (req.method !== 'GET' || req.url.split('?')[0] !== '/query') return;
      if (supervisor.current.state === 'running' && req.principal?.permissions.has('dashboard.view') && !req.principal.partial) return reply.redirect('/bi/sqllab/');
    });

    ctx.http.addHook('onSend', async (req, reply, payload) => {
      if (req.method !== 'POST' && req.method !== 'GET') return payload;
      // logging out of Basin ends the dashboard session too
      if (req.method === 'POST' && req.routeOptions.url === '/api/auth/logout' && reply.statusCode < 300) {
        reply.header('set-cookie', [...cookieList(reply.getHeader('set-cookie')), `${BI_COOKIE}=; Path=/bi; Max-Age=0; HttpOnly; SameSite=Lax`]);
        return payload;
      }
      // logging in (password, second factor, single sign-on callback) opens the dashboard session next to Basin's
      const set = cookieList(reply.getHeader('set-cookie'));
      const session = set.find((c) => /^basin_session=[^;]/.test(c));
      if (!session || reply.statusCode >= 400 || supervisor.current.state !== 'running') return payload;
      const authn = ctx.tryResolve(coreServices.authenticator);
      const principal = authn?.authenticateHeaders ? await authn.authenticateHeaders({ cookie: session.split(';')[0] }, req.ip) : null;
      if (!principal?.userId || principal.partial || principal.pending || !principal.permissions.has('dashboard.view')) return payload;
      const value = await openSupersetSession(supervisor.port, supervisor.proxySecret, identityOf(principal, password), 5000);
      if (value) reply.header('set-cookie', [...set, `${BI_COOKIE}=${value}; Path=/bi; HttpOnly; SameSite=Lax${session.includes('Secure') ? '; Secure' : ''}`]);
      return payload;
    });
  },
});
