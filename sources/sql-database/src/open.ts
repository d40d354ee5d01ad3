import type { SourceContext } from '@basin/sdk';
import type { SqlDatabaseConfig } from './config.js';
import type { DbSession } from './session.js';

/** Opens a session for the config's dialect; each driver is loaded only when its dialect is used. */
export async function openSession(ctx: SourceContext<SqlDatabaseConfig>): Promise<DbSession> {
  switch (ctx.config.dialect ?? 'postgres') {
    case 'mysql':
      return (await import('./mysql.js')).openMysql(ctx);
    case 'sqlite':
      return (await import('./sqlite.js')).openSqlite(ctx);
    default:
      return (await import('./postgres.js')).openPostgres(ctx);
  }
}
