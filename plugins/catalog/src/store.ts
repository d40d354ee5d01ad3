import { migrate, type SqliteDb } from '@basin/core';
import type { TableProfile } from './profile.js';

const MIGRATIONS = [
  `CREATE TABLE catalog_profiles (table_schema TEXT NOT NULL, table_name TEXT NOT NULL, profile TEXT NOT NULL, profiled_at TEXT NOT NULL, PRIMARY KEY (table_schema, table_name));
   CREATE TABLE catalog_freshness (source TEXT PRIMARY KEY, last_synced_at TEXT NOT NULL, rows INTEGER, sync_id TEXT);`,
];

/** Cached column profiles and last-load times in `.basin/state.db` (tables prefixed `catalog_`). */
export class CatalogStore {
  constructor(private readonly db: SqliteDb) {
    migrate(db, 'catalog', MIGRATIONS);
  }

  profile(schema: string, table: string): TableProfile | null {
    const r = this.db.prepare('SELECT profile FROM catalog_profiles WHERE table_schema = ? AND table_name = ?').get(schema, table) as { profile: string } | undefined;
    return r ? (JSON.parse(r.profile) as TableProfile) : null;
  }

  saveProfile(p: TableProfile): void {
    this.db
      .prepare('INSERT INTO catalog_profiles (table_schema, table_name, profile, profiled_at) VALUES (?, ?, ?, ?) ON CONFLICT (table_schema, table_name) DO UPDATE SET profile = excluded.profile, profiled_at = excluded.profiled_at')
      .run(p.schema, p.table, JSON.stringify(p), p.profiled_at);
  }

  recordSync(source: string, at: string, rows: number | null, syncId: string | null): void {
    this.db
      .prepare('INSERT INTO catalog_freshness (source, last_synced_at, rows, sync_id) VALUES (?, ?, ?, ?) ON CONFLICT (source) DO UPDATE SET last_synced_at = excluded.last_synced_at, rows = excluded.rows, sync_id = excluded.sync_id')
      .run(source, at, rows, syncId);
  }

  freshness(): Map<string, { last_synced_at: string; rows: number | null; sync_id: string | null }> {
    const rows = this.db.prepare('SELECT * FROM catalog_freshness').all() as Array<{ source: string; last_synced_at: string; rows: number | null; sync_id: string | null }>;
    return new Map(rows.map((r) => [r.source, { last_synced_at: r.last_synced_at, rows: r.rows, sync_id: r.sync_id }]));
  }
}
