import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../logger.js';
import { loadConfigFile } from './loader.js';
import type { ConfigFileSpec, ConfigIssue } from './types.js';

export interface LiveFileError {
  file: string;
  message: string;
  since: string;
}

/**
 * A declared config file that takes edits without a restart: `get()` looks at the file's size and
 * mtime (one stat) and, when it changed, reads and validates it like start-up does (schema,
 * `validate`, then the async `check`). A valid edit is swapped in; an invalid one keeps the running
 * value, is logged once and is reported by `error()` until the file is fixed.
 */
export class LiveConfigFile<T> {
  private value: T;
  private stamp: string;
  private lastError: LiveFileError | null = null;
  private loading: Promise<T> | null = null;

  constructor(
    private readonly projectDir: string,
    private readonly spec: ConfigFileSpec,
    initial: T,
    private readonly log: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.value = initial;
    this.stamp = this.currentStamp();
  }

  /** the last value that validated (the start-up value until an edit validates) */
  get current(): T {
    return this.value;
  }

  error(): LiveFileError | null {
    return this.lastError;
  }

  /** the running value, after taking in an edit of the file if there is one that validates */
  async get(): Promise<T> {
    if (this.loading) return this.loading;
    const stamp = this.currentStamp();
    if (stamp === this.stamp) return this.value;
    this.loading = (async () => {
      const { loaded, problems } = this.load();
      if (!problems.length && this.spec.check) {
        for (const p of await this.spec.check(loaded.value)) problems.push(`${loaded.resolvedPath ?? this.spec.path} ${p.path}: ${p.message}`);
      }
      return this.settle(stamp, loaded.value as T, loaded.resolvedPath, problems);
    })().finally(() => (this.loading = null));
    return this.loading;
  }

  /** `get()` for a file without an asynchronous `check` */
  getSync(): T {
    if (this.spec.check) throw new Error(`${this.spec.path} has an asynchronous check; use get()`);
    const stamp = this.currentStamp();
    if (stamp === this.stamp) return this.value;
    const { loaded, problems } = this.load();
    return this.settle(stamp, loaded.value as T, loaded.resolvedPath, problems);
  }

  private load() {
    const issues: ConfigIssue[] = [];
    const loaded = loadConfigFile(this.projectDir, this.spec, issues);
    const problems = issues.filter((i) => i.severity === 'error').map((i) => `${i.file}${i.line ? `:${i.line}` : ''} ${i.path}: ${i.message}`);
    return { loaded, problems };
  }

  private settle(stamp: string, value: T, resolvedPath: string | null, problems: string[]): T {
    const file = resolvedPath ?? this.spec.path;
    this.stamp = stamp;
    if (problems.length) {
      this.lastError = { file, message: problems.join('; '), since: this.now().toISOString() };
      this.log.warn({ file, problems }, `${file} is invalid; the running configuration is kept`);
      return this.value;
    }
    this.value = value;
    this.log.info({ file }, this.lastError ? 'config file fixed; the edit is applied' : 'config file changed; the edit is applied');
    this.lastError = null;
    return this.value;
  }

  /** size, mtime and inode of the first existing path or alias ("" when none exists) */
  private currentStamp(): string {
    for (const rel of [this.spec.path, ...(this.spec.aliases ?? [])]) {
      try {
        const st = fs.statSync(path.join(this.projectDir, rel));
        return `${rel}:${st.size}:${st.mtimeMs}:${st.ino}`;
      } catch {
        // not there: try the next name
      }
    }
    return '';
  }
}
