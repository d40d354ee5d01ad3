import type { SqliteDb } from '@basin/core';
import { migrateTx } from './history.js';
import { rawSchema, type StagingReport } from './staging.js';

/** The latest staging report per source (tx_staging_reports), so removed raw tables stay visible. */
export class StagingStore {
  constructor(private readonly db: SqliteDb) {
    migrateTx(db);
  }

  save(r: StagingReport): void {
    this.db
      .prepare('INSERT INTO tx_staging_reports (source, report, generated_at) VALUES (?, ?, ?) ON CONFLICT(source) DO UPDATE SET report=excluded.report, generated_at=excluded.generated_at')
      .run(r.source, JSON.stringify(r), r.generated_at);
  }

  all(): StagingReport[] {
    return (this.db.prepare('SELECT report FROM tx_staging_reports ORDER BY source').all() as Array<{ report: string }>).map((r) => JSON.parse(r.report));
  }

  /** `raw_<source>.<table>` (lower case) of every raw table reported as gone. */
  missingTables(): Set<string> {
    return new Set(this.all().flatMap((r) => r.removed_tables.map((t) => `${rawSchema(r.source)}.${t}`.toLowerCase())));
  }
}
