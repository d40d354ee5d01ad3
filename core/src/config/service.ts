import fs from 'node:fs';
import path from 'node:path';
import { dotenv } from '../lazy-deps.js';
import { isSealed, openEnvValue } from './env-seal.js';
import type { ConfigIssue } from './types.js';
import type { LoadedFile } from './loader.js';
import type { PlatformSection, ProjectSection } from './project-schema.js';

/**
 * The loaded configuration, read-only for plugins. Sensitive files are reachable only through
 * `sensitive()`, which callers must never log or return.
 */
export class BasinConfig {
  constructor(
    readonly projectDir: string,
    private readonly projectYml: Record<string, any>,
    private readonly files: Map<string, LoadedFile>,
    readonly issues: ConfigIssue[],
  ) {}

  get project(): ProjectSection {
    return this.projectYml.project;
  }

  get platform(): PlatformSection {
    return this.projectYml.platform;
  }

  /** a section of project.yml owned by a plugin (`auth`, `api`, ...) */
  section<T = any>(name: string): T {
    return this.projectYml[name] as T;
  }

  /** a non-sensitive config file's value with defaults applied */
  file<T = any>(id: string): T {
    const f = this.files.get(id);
    if (!f) throw new Error(`config file "${id}" is not declared by any plugin`);
    if (f.spec.sensitive) throw new Error(`config file "${id}" is sensitive; use config.sensitive("${id}")`);
    return f.value as T;
  }

  sensitive<T = any>(id: string): T {
    const f = this.files.get(id);
    if (!f) throw new Error(`config file "${id}" is not declared by any plugin`);
    return f.value as T;
  }

  /**
   * Swaps in a new value for a file the owning plugin has just validated and written (atomically), so
   * readers see the edit without a restart (the sources API adding, enabling or removing a source).
   */
  replaceFile(id: string, value: unknown, resolvedPath: string): void {
    const f = this.files.get(id);
    if (!f) throw new Error(`config file "${id}" is not declared by any plugin`);
    this.files.set(id, { ...f, value, resolvedPath });
  }

  /** which file was actually read for a spec (an alias such as metrics.yml, or null when absent) */
  resolvedPath(id: string): string | null {
    return this.files.get(id)?.resolvedPath ?? null;
  }

  hasFile(id: string): boolean {
    return this.files.has(id);
  }

  /** absolute path of a project-relative path */
  resolve(...p: string[]): string {
    return path.resolve(this.projectDir, ...p);
  }

  /**
   * the environment Basin runs with: `.env` values overlaid by the process environment. `.env` is read
   * again when it changed on disk (size, mtime or inode), so `basin secrets set` and the secrets API
   * take effect without a restart; sealed values (see env-seal.ts) are opened here.
   */
  env(name: string): string | undefined {
    const fromProcess = process.env[name];
    if (fromProcess !== undefined) return fromProcess;
    const v = this.envFileValues()[name];
    return v !== undefined && isSealed(v) ? openEnvValue(name, v) : v;
  }

  private envStamp: string | undefined;
  private envValues: Record<string, string> = {};

  private envFileValues(): Record<string, string> {
    const f = this.files.get('env');
    if (!f) return {};
    const file = path.resolve(this.projectDir, f.spec.path);
    let stamp = 'absent';
    try {
      const st = fs.statSync(file);
      stamp = `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      /* no .env: nothing but the process environment */
    }
    if (stamp !== this.envStamp) {
      this.envStamp = stamp;
      try {
        this.envValues = stamp === 'absent' ? {} : dotenv().parse(fs.readFileSync(file));
      } catch {
        this.envValues = (f.value as Record<string, string> | undefined) ?? {};
      }
    }
    return this.envValues;
  }
}
