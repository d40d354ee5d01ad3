import fs from 'node:fs';
import type { DuckDBInstance, DuckDBConnection } from '@duckdb/node-api';

/** Options of every query instance: read-only, no file or network access, settings frozen, no extension loading. */
export const READ_ONLY_OPTIONS: Record<string, string> = {
  access_mode: 'READ_ONLY',
  enable_external_access: 'false',
  autoinstall_known_extensions: 'false',
  autoload_known_extensions: 'false',
  lock_configuration: 'true',
};

export interface EngineLimits {
  /** DuckDB's own memory_limit in MB (its buffer manager; the query process's RSS is watched separately) */
  memoryLimitMb: number;
  threads: number;
}

/**
 * One read-only DuckDB instance on the serving copy, reopened whenever the file's identity (inode +
 * mtime) changes: a reader holding the old file keeps seeing its old contents after a publish
 * (rename). Used by one query process, which runs one query at a time, so no reference counting.
 */
export class ReadOnlyInstance {
  private instance: DuckDBInstance | null = null;
  private key = '';
  private conn: DuckDBConnection | null = null;
  /** names of DuckDB's table functions (the guard checks bare names against them) */
  tableFunctions: ReadonlySet<string> = new Set();

  constructor(private readonly limits: EngineLimits) {}

  async connection(file: string): Promise<DuckDBConnection> {
    const st = fs.statSync(file, { bigint: true });
    const key = `${file}:${st.ino}:${st.mtimeNs}`;
    if (this.conn && key === this.key) return this.conn;
    this.close();
    const { lock_configuration: _locked, ...unlocked } = READ_ONLY_OPTIONS;
    const { DuckDBInstance } = await import('@duckdb/node-api');
    this.instance = await DuckDBInstance.create(file, {
      ...unlocked,
      memory_limit: `${this.limits.memoryLimitMb}MB`,
      threads: String(this.limits.threads),
    });
    this.key = key;
    this.conn = await this.instance.connect();
    // a small result buffer (default ~1 MB of rows ahead) keeps wide rows from piling up before they are read;
    // it can only be SET, so the configuration is locked right after
    await this.conn.run("SET streaming_buffer_size = '64KB'");
    await this.conn.run('SET lock_configuration = true');
    const fns = await this.conn.runAndReadAll("SELECT DISTINCT lower(function_name) FROM duckdb_functions() WHERE function_type = 'table'");
    this.tableFunctions = new Set(fns.getRows().map((r) => String(r[0])));
    return this.conn;
  }

  close(): void {
    this.conn?.closeSync();
    this.instance?.closeSync();
    this.conn = null;
    this.instance = null;
    this.key = '';
  }
}
