import { type Warehouse } from '@basin/core';
import { rawSchema } from '@basin/plugin-sources/contract';
import type { ReadItem, ResourceSpec } from '@basin/sdk';
import { commitLoad } from './load/commit.js';
import { StagingLoad } from './load/staging.js';
import type { LoadedTable, LoadHooks } from './load/types.js';

export { committedSyncIds, dropStaleStaging, tableExists } from './load/commit.js';
export { META_SCHEMA, STAGING_PREFIX, type LoadedTable, type LoadHooks } from './load/types.js';

/**
 * One sync's load into the warehouse (DECISIONS §3): staging (load/staging.ts) bulk-loads every batch
 * into per-resource staging tables; commit (load/commit.ts) swaps them into the raw tables in ONE
 * transaction, so a failed or killed sync leaves the previous tables as they were; diagnostics
 * (load/diagnose.ts) name the file and line of a load DuckDB refused. The load memory limit is the
 * warehouse's (bounded writes).
 */
export class LoadSession {
  readonly schema: string;
  private readonly staging: StagingLoad;

  constructor(
    private readonly warehouse: Warehouse,
    readonly source: string,
    readonly syncId: string,
    private readonly loadedAt: Date,
    tmpDir: string,
    private readonly specs: ResourceSpec[],
    signal: AbortSignal,
    hooks: LoadHooks,
  ) {
    this.schema = rawSchema(source);
    this.staging = new StagingLoad(warehouse, this.schema, syncId, loadedAt, tmpDir, specs, signal, hooks);
  }

  get rowsLoaded(): number {
    return this.staging.rowsLoaded;
  }

  add(item: ReadItem): Promise<void> {
    return this.staging.add(item);
  }

  /** loads everything still buffered */
  flush(): Promise<void> {
    return this.staging.flush();
  }

  /** swaps staging into the raw tables; a replace resource (or any on a full refresh) that yielded nothing is swapped to empty */
  async commit(fullRefresh: boolean): Promise<LoadedTable[]> {
    for (const spec of this.specs) if (fullRefresh || spec.writeDisposition === 'replace') this.staging.resource(spec.name);
    const touched = [...this.staging.resources.values()].filter((r) => r.created || r.forget.size || fullRefresh || r.spec?.writeDisposition === 'replace');
    return commitLoad(this.warehouse, { schema: this.schema, source: this.source, syncId: this.syncId, loadedAt: this.loadedAt, resources: touched, fullRefresh });
  }

  /** drops this sync's staging tables (after a successful swap, or after a failure or cancel: then the space they took is reclaimed) */
  discard(failed = false): Promise<void> {
    return this.staging.discard(failed);
  }
}
