import { createServiceRef, grantedFrom, type PermissionSpec } from '@basin/core';
import type { DriftChange } from './drift.js';
import type { PiiFinding } from './pii/types.js';
import type { PiiFindingView, SchemaHistoryEntry, SourceAttention } from './service.js';

/** The public face of the governance plugin: what other plugins may import (`@basin/plugin-governance/contract`). */
export type { DriftChange } from './drift.js';
export type { PiiFinding, EntityType } from './pii/types.js';
export type { PiiFindingView, SchemaHistoryEntry, SourceAttention } from './service.js';

/** What other plugins read from governance: which sources need attention, PII findings, schema history. */
export interface GovernanceView {
  /** sources with unaccepted schema drift, PII or a failed latest sync (transform skips them, the scheduler reports them) */
  attentionSources(): Promise<Set<string>>;
  attention(): SourceAttention[];
  piiFindings(filter: { source?: string; table?: string; includeDismissed?: boolean }): PiiFindingView[];
  schemaHistory(source: string, limit: number): SchemaHistoryEntry[];
}

export const governanceRef = createServiceRef<GovernanceView>({ id: 'governance' });

export interface SchemaDriftDetected {
  source: string;
  table: string;
  changes: DriftChange[];
  sync_id: string | null;
}
export interface PiiDetected {
  source: string;
  table: string;
  findings: PiiFinding[];
}

declare module '@basin/core' {
  interface BasinEvents {
    schema_drift_detected: SchemaDriftDetected;
    pii_detected: PiiDetected;
  }
}

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const governancePermissions = {
  view: { name: 'governance.view', roles: grantedFrom.viewer },
  manage: { name: 'governance.manage', roles: grantedFrom.admin },
} satisfies Record<string, PermissionSpec>;
