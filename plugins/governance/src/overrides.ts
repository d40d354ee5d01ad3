import fs from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { checkAgainstSchema, type BasinConfig, type Logger } from '@basin/core';
import { PiiOverridesFile, piiOverridesFileSpec } from './config.js';

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
 * Reads `.basin/pii-overrides.yml` on each use, so an edited file applies without a restart. An
 * invalid file (after start-up validated it) keeps the last good overrides and logs why.
 */
export class OverridesReader {
  private lastGood: PiiOverrideRecord[];

  constructor(private readonly config: BasinConfig, private readonly log: Logger) {
    this.lastGood = normalize(config.file<PiiOverridesFile>('pii-overrides').overrides ?? []);
  }

  all(): PiiOverrideRecord[] {
    const file = this.config.resolve(piiOverridesFileSpec.path);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      return (this.lastGood = []);
    }
    try {
      const { value, problems } = checkAgainstSchema(PiiOverridesFile, parseYaml(text) ?? {});
      if (problems.length) throw new Error(problems.map((p) => `${p.path}: ${p.message}`).join('; '));
      return (this.lastGood = normalize((value as PiiOverridesFile).overrides));
    } catch (e) {
      this.log.warn({ file, problem: (e as Error).message }, 'pii-overrides.yml is invalid; keeping the last valid overrides');
      return this.lastGood;
    }
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
