import fs from 'node:fs';
import path from 'node:path';
import { BasinError, errors, writeFileAtomic, type Clock, type Logger } from '@basin/core';
import type { LockStore, NotebookLock } from './locks.js';
import { checkName } from './names.js';
import type { NotebookServers } from './servers.js';
import { renderTemplate, TEMPLATES, type TemplateName } from './templates.js';
import { notebookErrors } from './errors.js';

export interface NotebookRecord {
  name: string;
  /** relative to the project */
  file: string;
  size_bytes: number;
  modified_at: string;
  lock: NotebookLock | null;
  /** whether its marimo server runs now */
  running: boolean;
  /** where the notebook opens (through Basin's proxy) once locked */
  url: string;
}

export interface Caller {
  id: string | null;
  email: string | null;
}

/** Notebook files in `notebooks/`, their locks, and the servers of locked ones (SPEC "Notebook lock"). */
export class NotebookService {
  constructor(
    private readonly d: {
      dir: string;
      projectDir: string;
      locks: LockStore;
      servers: NotebookServers;
      clock: Clock;
      lockTtlMs: () => number;
      /** a server nobody has open this long stops (memory stays bounded even while heartbeats go on) */
      idleMs: () => number;
      log: Logger;
    },
  ) {}

  file(name: string): string {
    return path.join(this.d.dir, `${checkName(name)}.py`);
  }

  private record(name: string): NotebookRecord {
    const st = fs.statSync(this.file(name));
    return {
      name,
      file: path.relative(this.d.projectDir, this.file(name)),
      size_bytes: st.size,
      modified_at: st.mtime.toISOString(),
      lock: this.d.locks.get(name, this.d.clock.now()) ?? null,
      running: !!this.d.servers.get(name),
      url: `/notebooks/${name}/`,
    };
  }

  exists(name: string): boolean {
    return fs.existsSync(this.file(name));
  }

  private mustExist(name: string): void {
    if (!this.exists(name)) throw errors.notFound(`Notebook "${name}"`);
  }

  list(): NotebookRecord[] {
    let names: string[] = [];
    try {
      names = fs.readdirSync(this.d.dir).filter((f) => f.endsWith('.py')).map((f) => f.slice(0, -3));
    } catch {
      /* no notebooks/ yet */
    }
    return names.filter((n) => /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/.test(n)).sort().map((n) => this.record(n));
  }

  create(name: string, template: string = 'blank'): NotebookRecord {
    checkName(name);
    if (!(TEMPLATES as readonly string[]).includes(template)) {
      throw notebookErrors.invalid_template({ template, templates: TEMPLATES }, { details: { field: 'template' } });
    }
    if (this.exists(name)) throw notebookErrors.notebook_exists({ name });
    fs.mkdirSync(this.d.dir, { recursive: true });
    writeFileAtomic(this.file(name), renderTemplate(template as TemplateName));
    return this.record(name);
  }

  async remove(name: string, caller: Caller): Promise<void> {
    this.mustExist(name);
    const lock = this.d.locks.get(name, this.d.clock.now());
    if (lock && lock.user_id !== caller.id) throw this.heldBy(lock);
    await this.d.servers.stop(name);
    this.d.locks.release(name);
    fs.rmSync(this.file(name), { force: true });
  }

  private heldBy(lock: NotebookLock): BasinError {
    return notebookErrors.notebook_locked({ name: lock.name, holder: lock.user_email ?? 'another user', until: lock.expires_at }, { details: { locked_by: lock.user_email, expires_at: lock.expires_at } });
  }

  /** Takes the lock and starts the notebook's server; the caller then opens `url`. */
  async lock(name: string, caller: Caller): Promise<NotebookRecord> {
    this.mustExist(name);
    const r = this.d.locks.acquire(name, caller, this.d.clock.now(), this.d.lockTtlMs());
    if (!r.ok) throw this.heldBy(r.held);
    try {
      if (!this.d.servers.get(name)) await this.d.servers.check(name);
      await this.d.servers.start(name);
    } catch (e) {
      this.d.locks.release(name); // no server, no lock: the notebook stays free
      throw e;
    }
    return this.record(name);
  }

  heartbeat(name: string, caller: Caller): NotebookRecord {
    this.mustExist(name);
    const held = this.d.locks.heartbeat(name, caller.id, this.d.clock.now(), this.d.lockTtlMs());
    if (!held) {
      const other = this.d.locks.get(name, this.d.clock.now());
      if (other) throw this.heldBy(other);
      throw notebookErrors.notebook_not_locked({ name });
    }
    return this.record(name);
  }

  async release(name: string, caller: Caller): Promise<NotebookRecord> {
    this.mustExist(name);
    const lock = this.d.locks.get(name, this.d.clock.now());
    if (lock && lock.user_id !== caller.id) throw this.heldBy(lock);
    this.d.locks.release(name);
    await this.d.servers.stop(name);
    return this.record(name);
  }

  /** Force release (notebooks.manage): ends another user's lock and stops the server. */
  async forceRelease(name: string, by: Caller): Promise<NotebookRecord> {
    this.mustExist(name);
    const lock = this.d.locks.get(name, this.d.clock.now());
    this.d.locks.release(name);
    await this.d.servers.stop(name);
    if (lock) this.d.log.info({ notebook: name, holder: lock.user_email, by: by.email }, 'notebook lock force-released');
    return this.record(name);
  }

  copy(name: string, target?: string): NotebookRecord {
    this.mustExist(name);
    let to = target ? checkName(target, 'name') : `${name}-copy`;
    for (let i = 2; !target && this.exists(to); i++) to = `${name}-copy-${i}`;
    if (this.exists(to)) throw notebookErrors.notebook_exists({ name: to });
    writeFileAtomic(this.file(to), fs.readFileSync(this.file(name)));
    return this.record(to);
  }

  /** Stops the servers of locks that expired (heartbeats stopped) and of idle ones (their locks released); called periodically. */
  async expire(): Promise<string[]> {
    const gone = this.d.locks.sweepExpired(this.d.clock.now());
    for (const name of gone) await this.d.servers.stop(name);
    for (const name of this.d.servers.idle(this.d.idleMs())) {
      this.d.log.info({ notebook: name }, 'notebook server idle: stopped and its lock released');
      this.d.locks.release(name);
      await this.d.servers.stop(name);
      gone.push(name);
    }
    // a server whose lock vanished (released elsewhere) stops too
    for (const s of this.d.servers.list()) if (!this.d.locks.get(s.name, this.d.clock.now())) await this.d.servers.stop(s.name);
    return gone;
  }

  /** Whether `caller` may use the notebook's server through the proxy now. */
  holder(name: string, caller: Caller): boolean {
    const lock = this.d.locks.get(name, this.d.clock.now());
    return !!lock && lock.user_id === caller.id;
  }
}
