import { asValue, definePlugin, type SqliteDb, type Warehouse } from '@basin/core';
import { GovernanceSection, piiOverridesFileSpec, type GovernanceSettings } from './config.js';
import { registerDriftCommands } from './cli.js';
import { OverridesReader } from './overrides.js';
import { registerGovernanceRoutes } from './routes.js';
import { Governance, type PostLoad } from './service.js';
import { GovernanceStore } from './store.js';

export * from './config.js';
export * from './drift.js';
export * from './service.js';
export type { PiiFinding, EntityType } from './pii/types.js';
export type { PiiOverrideRecord } from './overrides.js';

interface SyncEngineHooks {
  addPostLoadHook(fn: (c: PostLoad) => Promise<void>): void;
}
/** the part of the sync plugin's `syncStore` service read here: sources whose latest decisive sync failed */
interface SyncHistory {
  failures(): Array<{ id: string; source: string; error: string | null; finished_at: string | null; started_at: string }>;
}

/** Schema drift, PII detection and source attention (SPEC "Schema drift and source attention", "PII findings"). */
export default definePlugin({
  name: 'governance',
  optionalDependsOn: ['sync'],
  configFiles: [piiOverridesFileSpec],
  configSections: [{ section: 'governance', schema: GovernanceSection }],
  commands(cli) {
    registerDriftCommands(cli);
  },
  register(ctx) {
    const settings: GovernanceSettings = ctx.config.section<GovernanceSettings>('governance') ?? GovernanceSection.default;
    const store = new GovernanceStore(ctx.resolve<SqliteDb>('stateDb'));
    const overrides = new OverridesReader(ctx.config, ctx.log);
    const gov = new Governance(store, ctx.resolve<Warehouse>('warehouse'), ctx.events, ctx.clock, ctx.log, { ...defaults(), ...settings }, overrides, () => {
      const history = ctx.tryResolve<SyncHistory>('syncStore');
      if (typeof history?.failures !== 'function') return null;
      return history.failures().map((f) => ({ source: f.source, sync_id: f.id, error: f.error, failed_at: f.finished_at ?? f.started_at }));
    });
    ctx.provide('governance', asValue(gov));
    ctx.events.declare('schema_drift_detected', 'pii_detected');

    ctx.tryResolve<SyncEngineHooks>('syncEngine')?.addPostLoadHook((c) => gov.afterLoad(c));
    // attention lists sources whose last sync failed; cleared by the next successful sync
    ctx.events.on('sync_failed', (p) => {
      const e = p as unknown as { source: string; sync_id?: string; error?: string };
      gov.recordSyncFailure(e.source, e.sync_id ?? null, e.error ?? null);
    });
    ctx.events.on('sync_completed', (p) => gov.recordSyncSuccess((p as unknown as { source: string }).source));

    registerGovernanceRoutes(ctx, gov);
    ctx.health(() => ({ governance: { attention_sources: store.attention().map((a) => a.source), pii_overrides_error: overrides.error() } }));
  },
});

function defaults(): GovernanceSettings {
  return { drift_enabled: true, pii_enabled: true, pii_sample_rows: 100, pii_min_match_share: 0.5, pii_min_confidence: 0.5 };
}
