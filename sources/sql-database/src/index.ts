import { defineSource, SourceError } from '@basin/sdk';
import { selectTables, toResource } from './catalog.js';
import { SqlDatabaseConfig } from './config.js';
import { openSession } from './open.js';
import { readTables } from './read.js';

export { SqlDatabaseConfig } from './config.js';
export { duckdbType } from './type-map.js';
export { quoteIdent, resourceName } from './ident.js';

/**
 * PostgreSQL, MySQL/MariaDB or SQLite tables into the warehouse: full loads (replace) or incremental
 * by a cursor column (merge on the primary key, else append), streamed in batches from one snapshot.
 */
export default defineSource({
  type: 'sql_database',
  title: 'SQL database (PostgreSQL, MySQL/MariaDB, SQLite)',
  category: 'database',
  authKind: 'basic',
  wizard: false,
  configKey: 'typed',
  configSchema: SqlDatabaseConfig,
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  async check(ctx) {
    try {
      const db = await openSession(ctx);
      try {
        const version = await db.version();
        const tables = selectTables(ctx.config, await db.catalog(), db.place);
        return { ok: true, message: `Connected to ${db.label} ${version}; ${tables.length} table(s) to read from ${db.place}.` };
      } finally {
        await db.close();
      }
    } catch (e) {
      // check answers, it does not throw: a refused login, a missing table or a privilege error is the answer
      return { ok: false, message: e instanceof SourceError ? e.message : `sql_database: ${(e as Error).message}` };
    }
  },
  async discover(ctx) {
    const db = await openSession(ctx);
    try {
      const tables = selectTables(ctx.config, await db.catalog(), db.place);
      return tables.map((t) => toResource(t, db.label, db.namespace));
    } finally {
      await db.close();
    }
  },
  read: readTables,
});
