import { defineSource, type ReadItem } from '@basin/sdk';
import { connect, describeError } from './client.js';
import { planCollections, toResource } from './collections.js';
import { MongodbConfig } from './config.js';

export { MongodbConfig } from './config.js';
export { resourceName } from './collections.js';

/**
 * MongoDB collections into the warehouse (SPEC: document database; collections are discovered):
 * one raw table per collection, nested documents flattened the way the REST vendors' records are,
 * full loads (replace) or incremental by a field or by `_id` (merged on `_id`), the cursor position
 * committed with the data. The driver is loaded only when a mongodb source runs.
 */
export default defineSource({
  type: 'mongodb',
  title: 'MongoDB',
  category: 'database',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: MongodbConfig,
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  discoverSelects: true,
  validateConfig(cfg) {
    const problems = [];
    if (!cfg.connection_url_env && !cfg.host) problems.push({ path: '/connection_url_env', message: 'set connection_url_env (a variable holding a mongodb:// URL) or host' });
    if (cfg.connection_url_env && cfg.host) problems.push({ path: '/host', message: 'set either connection_url_env or host, not both' });
    if (cfg.username && !cfg.password_env) problems.push({ path: '/password_env', message: 'username is set: name the variable holding its password in password_env' });
    return problems;
  },
  async check(ctx) {
    try {
      const conn = await connect(ctx);
      try {
        const info = await conn.client.db(conn.database).admin().command({ buildInfo: 1 });
        const plans = await planCollections(conn.client.db(conn.database), ctx.config);
        return { ok: true, message: `Connected to ${conn.where} (version ${String(info.version ?? '?')}); ${plans.length} collection(s) to read from ${conn.database}.` };
      } finally {
        await conn.client.close();
      }
    } catch (e) {
      // check answers, it does not throw: a refused login or a missing collection is the answer
      return { ok: false, message: describeError(e, ctx).message };
    }
  },
  async discover(ctx) {
    const conn = await connect(ctx);
    try {
      return (await planCollections(conn.client.db(conn.database), ctx.config)).map((p) => toResource(p, conn.database));
    } catch (e) {
      throw describeError(e, ctx, conn.where);
    } finally {
      await conn.client.close();
    }
  },
  async *read(ctx, resources, state): AsyncGenerator<ReadItem> {
    const { readCollections } = await import('./read.js');
    yield* readCollections(ctx, resources, state);
  },
});
