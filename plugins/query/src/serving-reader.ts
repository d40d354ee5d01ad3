import fs from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { BasinError, type Logger, type Warehouse } from '@basin/core';
import { queryErrors } from './errors.js';

/** Options of every query instance: read-only, no file or network access, settings frozen, no extension loading. */
export const READ_ONLY_OPTIONS: Record<string, string> = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  lock_configuration: 'true',
};

/** How long a query waits for a stale copy to be republished before answering from the previous one. */
export const STALE_PUBLISH_WAIT_MS = 2000;
/** A stale copy is republished by queries at most this often (the warehouse also publishes after loads). */
export const REPUBLISH_INTERVAL_MS = 5000;

interface Opened {
  key: string;
  instance: DuckDBInstance;
  refs: number;
  retired: boolean;
}

export interface Lease {
  conn: DuckDBConnection;
  release(): void;
}

const statNs = (file: string): bigint | null => {
  try {
    return fs.statSync(file, { bigint: true }).mtimeNs;
  } catch {
    return null;
  }
};

/**
 * Hands out connections to a read-only DuckDB instance on the serving copy (data/serving.db).
 * The copy is published by the warehouse after loads and dbt runs; this reader publishes it itself
 * when it is missing, or older than the warehouse file or its WAL (a write happened since), unless
 * the warehouse is handed off to dbt (then the last copy is served). A reader holding the old file
 * keeps its old contents after a publish (rename), so the instance is reopened whenever the file's
 * identity (inode + mtime) changes; the old one closes when its last connection is released.
 */
export class ServingReader {
  private current: Opened | null = null;
  private opening: Promise<Opened> | null = null;
  private closed = false;
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

  private async ensurePublished(): Promise<void> {
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
        throw queryErrors.serving_copy_unavailable();
      }
    }
  }

  private fileKey(): string {
    const st = fs.statSync(this.warehouse.servingPath, { bigint: true });
    return `${st.ino}:${st.mtimeNs}`;
  }

  async acquire(): Promise<Lease> {
    if (this.closed) throw queryErrors.shutting_down();
    await this.ensurePublished();
    const key = this.fileKey();
    let opened = this.current;
    if (!opened || opened.key !== key) {
      if (!this.opening) {
        this.opening = (async () => {
          const instance = await DuckDBInstance.create(this.warehouse.servingPath, READ_ONLY_OPTIONS);
          const fresh: Opened = { key, instance, refs: 0, retired: false };
          const old = this.current;
          this.current = fresh;
          if (old) this.retire(old);
          return fresh;
        })().finally(() => (this.opening = null));
      }
      opened = await this.opening;
    }
    opened.refs++;
    let conn: DuckDBConnection;
    try {
      conn = await opened.instance.connect();
    } catch (e) {
      this.unref(opened);
      throw e;
    }
    let released = false;
    return {
      conn,
      release: () => {
        if (released) return;
        released = true;
        conn.closeSync();
        this.unref(opened!);
      },
    };
  }

  private retire(o: Opened): void {
    o.retired = true;
    if (o.refs === 0) o.instance.closeSync();
  }

  private unref(o: Opened): void {
    o.refs--;
    if (o.retired && o.refs === 0) o.instance.closeSync();
  }

  close(): void {
    this.closed = true;
    if (this.current) this.retire(this.current);
    this.current = null;
  }
}
