import { coreServices, definePlugin } from '@basin/core';
import { sourceStatusPoint, type SourceSchemaChange } from '@basin/plugin-sources/contract';
import { syncHistoryRef, syncLoadHooksPoint } from '@basin/plugin-sync/contract';
import { GovernanceSection, piiOverridesFileSpec, type GovernanceSettings } from './config.js';
import { registerDriftCommands } from './cli.js';
import { registerGovernanceCommands } from './cli/governance.js';
import { OverridesReader } from './overrides.js';
import { registerGovernanceRoutes } from './routes.js';
import { governanceRef, type DriftChange, governancePermissions } from './contract.js';
import { Governance } from './service.js';
import { GovernanceStore } from './store.js';

export * from './config.js';
export * from './drift.js';
export * from './service.js';
export * from './contract.js';
export type { PiiOverrideRecord } from './overrides.js';

/** Schema drift, PII detection and source attention (SPEC "Schema drift and source attention", "PII findings"). */
export default definePlugin({
  name: 'governance',
  permissions: Object.values(governancePermissions),
  optionalDependsOn: ['sources', 'sync'],
  configFiles: [piiOverridesFileSpec],
  configSections: [{ section: 'governance', schema: GovernanceSection }],
  commands(cli) {
    registerDriftCommands(cli);
    registerGovernanceCommands(cli);
  },
  register(ctx) {
    const settings: GovernanceSettings = ctx.config.section<GovernanceSettings>('governance') ?? GovernanceSection.default;
    const store = new GovernanceStore(ctx.resolve(coreServices.stateDb));
    const overrides = new OverridesReader(ctx.config, ctx.log);
    const gov = new Governance(store, ctx.resolve(coreServices.warehouseClient), ctx.events, ctx.clock, ctx.log, { ...defaults(), ...settings }, overrides, () => {
      const history = ctx.tryResolve(syncHistoryRef);
      if (!history) return null;
      return history.failures().map((f) => ({ source: f.source, sync_id: f.id, error: f.error, failed_at: f.finished_at ?? f.started_at }));
    });
    ctx.provide(governanceRef, gov);
    ctx.events.declare('schema_drift_detected', 'pii_detected');

    ctx.extensionPoint(syncLoadHooksPoint)?.addPostLoadHook((c) => gov.afterLoad(c));
    // attention lists sources whose last sync failed; cleared by the next successful sync
    ctx.events.on('sync_failed', (e) => gov.recordSyncFailure(e.source, e.sync_id ?? null, e.error ?? null));
    ctx.events.on('sync_completed', (e) => gov.recordSyncSuccess(e.source));
    // the sources API shows attention and the schema history, in its own vocabulary
    ctx.extensionPoint(sourceStatusPoint)?.contribute({
      attention: () => gov.attentionSources(),
      schemaChanges: (source, limit) =>
        gov.schemaHistory(source, limit).map((h) => ({ table: h.table, sync_id: h.sync_id, changes: h.changes.map(toSourceChange), at: h.detected_at })),
    });

    registerGovernanceRoutes(ctx, gov);
    ctx.health(() => ({ governance: { attention_sources: store.attention().map((a) => a.source), pii_overrides_error: overrides.error() } }));
  },
});

function defaults(): GovernanceSettings {
  return { drift_enabled: true, pii_enabled: true, pii_sample_rows: 100, pii_sample_read_rows: 100000, pii_min_match_share: 0.5, pii_min_confidence: 0.5 };
}

/** governance's change names → the sources API's (`column_added` → `added`, old/new type → from/to) */
function toSourceChange(c: DriftChange): SourceSchemaChange {
  const change = c.change_type === 'column_added' ? 'added' : c.change_type === 'column_removed' ? 'removed' : 'type_changed';
  return { column: c.column, change, ...(c.old_type !== null ? { from: c.old_type } : {}), ...(c.new_type !== null ? { to: c.new_type } : {}) };
}
