import { createExtensionPoint, createServiceRef, grantedFrom, type PermissionSpec } from '@basin/core';
import type { SourceRegistry } from './registry.js';
import type { SourcesConfig } from './source-config.js';
import type { OAuthToken } from '@basin/sdk';

/** The public face of the sources plugin: what other plugins may import (`@basin/plugin-sources/contract`). */
export type { SourceRegistry } from './registry.js';
export type { SourceEntry, SourcesFile } from './config.js';

/** for CLI commands that run before a project boots (`basin source add`) */
export { addProjectSources, loadSourceRegistry } from './registry.js';
export { SOURCE_NAME, sourcesFileSpec } from './config.js';
/** the add wizard's schema walk, shared by `basin source add` and the UI's add form */
export { parseAnswer, sourceTypeGroups, suggestedEnvName, wizardFields, type FieldKind, type WizardField } from './wizard/fields.js';
export type { SourcesConfig, RegisteredSource } from './source-config.js';
export { blockKey, configuredSources, findSource, maskConfig, rawSchema, sourceBlock, sourceDirectory } from './source-config.js';

/** the configured sources, live: a valid edit of sources.yml is taken in without a restart */
export const sourcesConfigRef = createServiceRef<SourcesConfig>({ id: 'sourcesConfig' });

/** every installed source type (packages and project-listed ones) */
export const sourceRegistryRef = createServiceRef<SourceRegistry>({ id: 'sourceRegistry' });

/** one column change of a source's schema history, in the sources API's vocabulary */
export interface SourceSchemaChange {
  column: string;
  change: 'added' | 'type_changed' | 'removed';
  from?: string;
  to?: string;
}
export interface SourceSchemaChangeGroup {
  table: string;
  sync_id: string | null;
  changes: SourceSchemaChange[];
  at: string;
}

export type SourceSyncStatus = 'synced' | 'syncing' | 'failed' | 'empty' | 'not_synced' | 'unknown';

/** what the sync plugin knows of a source: status, freshness and the tables it loaded */
export interface SourceSyncState {
  status: SourceSyncStatus;
  last_sync: string | null;
  freshness: { last_update: string | null; days_old: number | null };
  raw_schema: string;
  tables: Array<{ name: string; schema: string; row_count: number; columns: unknown[]; updated_at: string | null }>;
}

/** What other plugins add to a source's status in the sources API (sync state, schedule, attention, schema history). */
export interface SourceStatusContribution {
  /** the source's sync state (the sync plugin) */
  sync?(source: string): SourceSyncState;
  /** the source's latest sync records, newest first, and how many there are */
  syncHistory?(source: string, limit: number): { items: unknown[]; total: number };
  /** the schedules that sync this source, or null */
  schedule?(source: string): unknown;
  /** sources that need attention */
  attention?(): Promise<Set<string>>;
  /** the latest schema changes of a source, newest first */
  schemaChanges?(source: string, limit: number): SourceSchemaChangeGroup[];
}
export interface SourceStatusExtensions {
  contribute(c: SourceStatusContribution): void;
  contributions(): readonly SourceStatusContribution[];
}
/** lets the scheduler and governance add to source status without the sources API depending on them */
export const sourceStatusPoint = createExtensionPoint<SourceStatusExtensions>({ id: 'sources.status' });

/** Provider OAuth tokens of source types (the secrets plugin provides them); the sync engine hands a source its token through `ctx.oauthToken()`. */
export interface SourceOAuthTokens {
  /** the current access token for a source type, refreshed first when it is about to expire */
  token(sourceType: string): Promise<OAuthToken>;
}
export const sourceOAuthRef = createServiceRef<SourceOAuthTokens>({ id: 'sourceOAuth' });
/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const sourcePermissions = {
  view: { name: 'source.view', roles: grantedFrom.viewer },
  view_credentials: { name: 'source.view_credentials', roles: grantedFrom.admin },
  manage: { name: 'source.manage', roles: grantedFrom.editor },
} satisfies Record<string, PermissionSpec>;
