import fs from 'node:fs';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { type Logger, type Warehouse } from '@basin/core';
import { queryErrors } from './errors.js';

/** Options of every query instance: read-only, no file or network access, settings frozen, no extension loading. */
export const READ_ONLY_OPTIONS: Record<string, string> = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  lock_configuration: 'true',
};

/** How long a query waits for the warehouse to publish a copy holding the latest writes before answering from the previous one. */
export const STALE_PUBLISH_WAIT_MS = 2000;

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

/**
 * Hands out connections to a read-only DuckDB instance on the serving copy (data/serving.db).
 * The warehouse alone publishes the copy (after writes, loads and dbt runs); a query only waits a
 * little for a publish under way and never writes (issue 11). A reader holding the old file
 * keeps its old contents after a publish (rename), so the instance is reopened whenever the file's
 * identity (inode + mtime) changes; the old one closes when its last connection is released.
 */
export class ServingReader {
  private current: Opened | null = null;
  private opening: Promise<Opened> | null = null;
  private closed = false;

  constructor(
    private readonly warehouse: Warehouse,
    private readonly log: Logger,
  ) {}

  private async ensurePublished(): Promise<void> {
    await this.warehouse.servingCopyReady(STALE_PUBLISH_WAIT_MS);
    if (!fs.existsSync(this.warehouse.servingPath)) {
      throw queryErrors.serving_copy_unavailable();
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
