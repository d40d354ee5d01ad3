import { warehouseBackendContext, type BasinConfig } from '@basin/core';
import type { WorkersSection } from './config.js';

/**
 * The queue's database: the URL in `queue_url_env`, else the PostgreSQL the warehouse backend already
 * uses (its writing role). Either way it is a secret: it never reaches a log or an error message.
 */
export function queueConnection(config: BasinConfig, section: WorkersSection): { connectionString: string } | { host: string; port: number; database: string; user: string; password: string | undefined; ssl?: boolean } {
  const url = config.env(section.queue_url_env);
  if (url) return { connectionString: url };
  const settings = warehouseBackendContext(config).settings;
  if (settings.type !== 'postgres') {
    throw new Error(`workers: set ${section.queue_url_env} to a PostgreSQL URL for the job queue (the warehouse is ${String(settings.type)}, not PostgreSQL).`);
  }
  return {
    host: String(settings.host),
    port: Number(settings.port),
    database: String(settings.database),
    user: String(settings.user),
    password: config.env(String(settings.password_env)),
    ...(settings.ssl === true ? { ssl: true } : {}),
  };
}
