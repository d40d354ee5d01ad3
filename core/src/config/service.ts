import path from 'node:path';
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

  /** the environment Basin runs with: `.env` values overlaid by the process environment */
  env(name: string): string | undefined {
    const fromProcess = process.env[name];
    if (fromProcess !== undefined) return fromProcess;
    const envFile = this.files.get('env')?.value as Record<string, string> | undefined;
    return envFile?.[name];
  }
}
