import path from 'node:path';
import { coreServices, definePlugin, writeFileAtomic, type PluginContext } from '@basin/core';
import { parseDocument } from 'yaml';
import fs from 'node:fs';
import { registerBiCommands } from './cli.js';
import { biSupervisorRef, dashboardPermissions } from './contract.js';
import { BiSection } from './config.js';
import { registerBiProxy } from './proxy.js';
import { SupersetSupervisor } from './supervisor.js';
import { supersetVenv } from './venv.js';

export { SupersetSupervisor, type SupersetStatus } from './supervisor.js';
export { supersetVenv, BI_REQUIREMENTS } from './venv.js';
export { supersetRole } from './roles.js';

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
  configSections: [{ section: 'bi', schema: BiSection }],
  commands: registerBiCommands,
  doctor: (d) => [supersetVenv.doctorCheck(d.projectDir)],
  async register(ctx: PluginContext) {
    const { config } = ctx;
    const section = (): BiSection => ({ enabled: true, start_timeout_seconds: 300, ...(config.section<Partial<BiSection>>('bi') ?? {}) });
    if (!section().enabled) {
      ctx.status(() => ({ name: 'bi', state: 'stopped', detail: 'bi.enabled is false in .basin/project.yml' }));
      return;
    }
    const warehouse = ctx.resolve(coreServices.warehouse);
    const venv = supersetVenv.locate(config.projectDir);
    const supervisor = new SupersetSupervisor({
      venv: supersetVenv,
      venvDir: venv.dir,
      home: path.join(config.projectDir, '.basin', 'bi'),
      port: () => config.platform.bi_port,
      servingPath: () => warehouse.servingPath,
      startTimeoutMs: () => section().start_timeout_seconds * 1000,
      log: ctx.log,
      onDatabaseId: (id) => saveDatabaseId(config.projectDir, id),
    });
    ctx.provide(biSupervisorRef, supervisor);
    await registerBiProxy(ctx, { supervisor, port: () => config.platform.bi_port });

    ctx.health(() => ({ bi: supervisor.current }));
    ctx.status(() => {
      const s = supervisor.current;
      const state = s.state === 'running' ? 'running' : s.state === 'failed' ? 'error' : s.state === 'stopped' ? 'stopped' : 'starting';
      return { name: 'bi', state, url: '/bi/', started_at: s.started_at, restarts: s.restarts, ...(s.error ? { detail: s.error } : {}) };
    });

    // `basin start` runs Superset; an embedded app (tests, scripts) starts it by asking biSupervisor
    ctx.onStart(() => {
      if (ctx.launchedByCli) void supervisor.start().catch(() => undefined); // the failure is in health
    });
    ctx.onStop(() => supervisor.stop());

    // logging out of Basin ends the dashboard session too
    ctx.http.addHook('onSend', async (req, reply, payload) => {
      if (req.method === 'POST' && req.routeOptions.url === '/api/auth/logout' && reply.statusCode < 300) {
        const prev = reply.getHeader('set-cookie');
        const list = prev === undefined ? [] : Array.isArray(prev) ? prev.map(String) : [String(prev)];
        reply.header('set-cookie', [...list, 'bi.SESSION=; Path=/bi; Max-Age=0; HttpOnly; SameSite=Lax']);
      }
      return payload;
    });
  },
});
