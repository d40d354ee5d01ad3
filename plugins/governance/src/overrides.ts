import { LiveConfigFile, type BasinConfig, type LiveFileError, type Logger } from '@basin/core';
import { piiOverridesFileSpec, type PiiOverridesFile } from './config.js';

export interface PiiOverrideRecord {
  source: string;
  table: string;
  column: string;
  status: 'pii' | 'not_pii';
  set_by: string | null;
  reason: string | null;
  updated_at: string | null;
}

/**
 * `.basin/pii-overrides.yml`, re-read when it changes so an edit applies without a restart. An
 * invalid edit keeps the last valid overrides and is reported by `error()` (and logged).
 */
export class OverridesReader {
  private readonly file: LiveConfigFile<PiiOverridesFile>;

  constructor(config: BasinConfig, log: Logger) {
    this.file = new LiveConfigFile(config.projectDir, piiOverridesFileSpec, config.file<PiiOverridesFile>('pii-overrides'), log);
  }

  all(): PiiOverrideRecord[] {
    return normalize(this.file.getSync().overrides ?? []);
  }

  error(): LiveFileError | null {
    return this.file.error();
  }

  /** the override for one column, if any (the last entry wins when a column is listed twice) */
  lookup(all: PiiOverrideRecord[], source: string, table: string, column: string): PiiOverrideRecord | undefined {
    for (let i = all.length - 1; i >= 0; i--) {
      const o = all[i]!;
      if (o.source === source && o.table === table && o.column === column) return o;
    }
    return undefined;
  }
}

function normalize(list: PiiOverridesFile['overrides']): PiiOverrideRecord[] {
  return list.map((o) => ({
    source: o.source,
    table: o.table,
    column: o.column,
    status: o.status,
    set_by: o.set_by ?? null,
    reason: o.reason ?? null,
    updated_at: o.updated_at instanceof Date ? o.updated_at.toISOString() : (o.updated_at ?? null),
  }));
}
