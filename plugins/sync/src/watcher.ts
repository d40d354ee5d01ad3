import fs from 'node:fs';
import path from 'node:path';
import type { FSWatcher } from 'chokidar';
import { BasinError, type BasinConfig, type Logger } from '@basin/core';
import type { SourcesConfig } from '@basin/plugin-sources/contract';
import type { SyncEngineImpl } from './engine.js';

/** `*.csv`-style patterns (chokidar 4 has no globs): `*` and `?` within a name, matched on the base name. */
export function patternMatcher(patterns: string[]): (file: string) => boolean {
  const res = patterns.map((p) => new RegExp(`^${p.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*\*\/?/g, '.*').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`, 'i'));
  return (file) => {
    const base = path.basename(file);
    if (base.startsWith('.')) return false;
    return res.some((r) => r.test(base) || r.test(file));
  };
}

const inside = (dir: string, file: string) => {
  const rel = path.relative(dir, file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/**
 * Watches platform.watch_directories for files matching watch_patterns and, with auto_sync on, syncs
 * every enabled file source whose directory holds the changed file, debounced per source.
 */
export class FileWatcher {
  private watcher: FSWatcher | null = null;
  private readonly timers = new Map<string, { timer: NodeJS.Timeout; due: Date; files: Set<string> }>();
  private lastEvent: { event: string; path: string; at: string } | null = null;
  private readonly triggered: Array<{ source: string; at: string; sync_id: string | null; skipped?: string }> = [];
  private ready = false;
  private error: string | null = null;
  private readonly match: (f: string) => boolean;

  constructor(
    private readonly config: BasinConfig,
    private readonly sources: SourcesConfig,
    private readonly engine: SyncEngineImpl,
    private readonly log: Logger,
  ) {
    this.match = patternMatcher(config.platform.watch_patterns);
  }

  get directories(): string[] {
    return this.config.platform.watch_directories.map((d) => this.config.resolve(d));
  }

  async start(): Promise<void> {
    const dirs = this.directories.filter((d) => fs.existsSync(d));
    if (!dirs.length) return;
    // chokidar loads only when a watched directory exists
    const { default: chokidar } = await import('chokidar');
    this.watcher = chokidar.watch(dirs, {
      ignoreInitial: true,
      awaitWriteFinish: { stabilityThreshold: 300, pollInterval: 100 },
      ignored: (p, stats) => path.basename(p).startsWith('.') || (!!stats?.isFile() && !this.match(p)),
    });
    for (const ev of ['add', 'change', 'unlink'] as const) this.watcher.on(ev, (p: string) => this.onChange(ev, p));
    this.watcher.on('error', (e) => {
      this.error = (e as Error).message;
      this.log.error({ err: e }, 'file watcher error');
    });
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));
    this.ready = true;
  }

  /** the enabled file sources whose directory contains `file` */
  sourcesFor(file: string): string[] {
    const abs = path.resolve(file);
    return this.sources
      .all()
      .filter((s) => s.enabled !== false)
      .filter((s) => {
        const dir = this.sources.directory(s);
        return dir !== null && inside(dir, abs);
      })
      .map((s) => s.name);
  }

  onChange(event: string, file: string): void {
    if (!this.match(file)) return;
    this.lastEvent = { event, path: this.shown(file), at: new Date().toISOString() };
    if (!this.config.platform.auto_sync) return;
    for (const source of this.sourcesFor(file)) this.schedule(source, file);
  }

  private schedule(source: string, file: string): void {
    const delay = this.config.platform.debounce_seconds * 1000;
    const prev = this.timers.get(source);
    if (prev) clearTimeout(prev.timer);
    const files = prev?.files ?? new Set<string>();
    files.add(file);
    const timer = setTimeout(() => this.fire(source), delay);
    timer.unref?.();
    this.timers.set(source, { timer, due: new Date(Date.now() + delay), files });
  }

  private fire(source: string): void {
    this.timers.delete(source);
    const at = new Date().toISOString();
    try {
      const r = this.engine.start(source, { trigger: 'watcher' });
      this.triggered.push({ source, at, sync_id: r.id });
    } catch (e) {
      if (e instanceof BasinError && e.code === 'sync_in_progress') {
        // the running sync may have missed the change: try again after the debounce
        this.triggered.push({ source, at, sync_id: null, skipped: 'sync_in_progress' });
        this.schedule(source, '(retry)');
      } else this.log.error({ err: e, source }, 'watcher could not start a sync');
    }
    if (this.triggered.length > 50) this.triggered.shift();
  }

  status() {
    return {
      enabled: this.config.platform.auto_sync,
      running: this.ready && this.watcher !== null,
      // paths as configured / relative to the project: the server's absolute layout is not shown (issue 12)
      directories: this.config.platform.watch_directories.map((d) => ({ path: d, exists: fs.existsSync(this.config.resolve(d)) })),
      patterns: this.config.platform.watch_patterns,
      debounce_seconds: this.config.platform.debounce_seconds,
      pending: [...this.timers.entries()].map(([source, t]) => ({ source, due_at: t.due.toISOString(), files: [...t.files].map((f) => this.shown(f)) })),
      last_event: this.lastEvent,
      recent_triggers: [...this.triggered].reverse().slice(0, 20),
      error: this.error,
    };
  }

  /** a watched file's path relative to the project (watched directories may lie outside it: then as given) */
  private shown(file: string): string {
    const rel = path.relative(this.config.projectDir, file);
    if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel;
    for (const d of this.config.platform.watch_directories) {
      const abs = this.config.resolve(d);
      const r = path.relative(abs, file);
      if (!r.startsWith('..') && !path.isAbsolute(r)) return path.join(d, r);
    }
    return path.basename(file);
  }

  async stop(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t.timer);
    this.timers.clear();
    await this.watcher?.close();
    this.watcher = null;
    this.ready = false;
  }
}
