import fs from 'node:fs';
import { BasinError, type Logger, type Warehouse } from '@basin/core';

/** How long a query waits for a stale copy to be republished before answering from the previous one. */
export const STALE_PUBLISH_WAIT_MS = 2000;
/** A stale copy is republished by queries at most this often (the warehouse also publishes after loads). */
export const REPUBLISH_INTERVAL_MS = 5000;

const statNs = (file: string): bigint | null => {
  try {
    return fs.statSync(file, { bigint: true }).mtimeNs;
  } catch {
    return null;
  }
};

/**
 * Keeps the serving copy (data/serving.db) fresh enough for queries. The copy is published by the
 * warehouse after loads and dbt runs; this publishes it when it is missing, or older than the
 * warehouse file or its WAL (a write happened since), unless the warehouse is handed off to dbt
 * (then the last copy is served). The query processes reopen the file when its identity changes.
 */
export class ServingFreshness {
  private lastPublishRequest = 0;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly log: Logger,
  ) {}

  /** true when the warehouse has changed since the serving copy was written */
  isStale(): boolean {
    const serving = statNs(this.warehouse.servingPath);
    if (serving === null) return true;
    const db = statNs(this.warehouse.dbPath) ?? 0n;
    const wal = statNs(`${this.warehouse.dbPath}.wal`) ?? 0n;
    return db > serving || wal > serving;
  }

  async ensurePublished(): Promise<void> {
    const exists = fs.existsSync(this.warehouse.servingPath);
    if (exists && (!this.warehouse.isOpen || !this.isStale())) return;
    // during a long load every query sees a stale copy: republish at most once per interval
    const now = Date.now();
    if (exists && now - this.lastPublishRequest < REPUBLISH_INTERVAL_MS) return;
    this.lastPublishRequest = now;
    const publish = this.warehouse.publishServingCopy();
    if (exists) {
      // the publish queues behind running writes: wait a little, else answer from the previous copy
      const settled = publish.then(
        () => undefined,
        (err) => this.log.warn({ err }, 'publishing the serving copy failed; answering from the previous copy'),
      );
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([settled, new Promise<void>((r) => (timer = setTimeout(r, STALE_PUBLISH_WAIT_MS)))]).finally(() => clearTimeout(timer));
      return;
    }
    try {
      await publish;
    } catch (err) {
      if (!fs.existsSync(this.warehouse.servingPath)) {
        this.log.error({ err }, 'publishing the serving copy failed');
        throw new BasinError(503, 'serving_copy_unavailable', 'The read-only copy of the warehouse is not available yet; retry shortly.');
      }
    }
  }
}
