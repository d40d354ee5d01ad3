import { defineSource, SourceError } from '@basin/sdk';
import { readCatalog, selectTables, toResource } from './catalog.js';
import { SqlDatabaseConfig } from './config.js';
import { connect } from './connect.js';
import { readTables } from './read.js';

export { SqlDatabaseConfig } from './config.js';
export { duckdbType } from './type-map.js';
export { quoteIdent, resourceName } from './ident.js';

/**
 * PostgreSQL tables into the warehouse: full loads (replace) or incremental by a cursor column
 * (merge on the primary key, else append), streamed through a server-side cursor.
 */
export default defineSource({
  type: 'sql_database',
  title: 'SQL database (PostgreSQL)',
  category: 'database',
  authKind: 'basic',
  wizard: false,
  configKey: 'typed',
  configSchema: SqlDatabaseConfig,
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  async check(ctx) {
    try {
      const client = await connect(ctx);
      try {
        const version = (await client.query('SHOW server_version')).rows[0].server_version as string;
        const tables = selectTables(ctx.config, await readCatalog(client, ctx.config.schema));
        return { ok: true, message: `Connected to PostgreSQL ${version}; ${tables.length} table(s) to read from schema "${ctx.config.schema}".` };
      } finally {
        await client.end().catch(() => undefined);
      }
    } catch (e) {
      // check answers, it does not throw: a refused login, a missing table or a privilege error is the answer
      return { ok: false, message: e instanceof SourceError ? e.message : `PostgreSQL: ${(e as Error).message}` };
    }
  },
  async discover(ctx) {
    const client = await connect(ctx);
    try {
      const tables = selectTables(ctx.config, await readCatalog(client, ctx.config.schema));
      return tables.map((t) => toResource(t, ctx.config.schema));
    } finally {
      await client.end().catch(() => undefined);
    }
  },
  read: readTables,
});
