import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BasinError, type Logger } from '@basin/core';
import type { QueryJob } from './query-runner.js';
import type { FromChild, ToChild } from './query-child.js';

export interface PoolSettings {
  /** query processes running at once (api.query_concurrency) */
  size: number;
  /** queries waiting for a process; beyond this a query is refused with 503 (api.query_queue_size) */
  queueSize: number;
  /** RSS cap of one query process in MB; DuckDB's own memory_limit is half of it (api.query_memory_mb) */
  memoryMb: number;
}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  busy: boolean;
}

interface Waiting {
  job: QueryJob;
  timeoutSeconds: number;
  timer: NodeJS.Timeout;
  resolve: (b: Buffer) => void;
  reject: (e: unknown) => void;
}

const RSS_POLL_MS = 50;
const STARTUP_TIMEOUT_MS = 60_000;
const PAGE_SIZE = 4096;

/** Resident memory of a process in bytes, from /proc (Linux); null where that is not available. */
export function processRss(pid: number): number | null {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE_SIZE;
  } catch {
    return null;
  }
}

const here = fileURLToPath(import.meta.url);
/** the query process entry beside this file: the TypeScript source in development, the built file otherwise */
const CHILD_FILE = path.join(path.dirname(here), here.endsWith('.ts') ? 'query-child.ts' : 'query-child.js');
/** loader flags (tsx, --conditions) the query process needs to load the same sources; nothing else is inherited */
const childExecArgv = (): string[] => {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (/^--(import|require|loader|experimental-loader|conditions)$/.test(a) || a === '-r' || a === '-C') out.push(a, argv[++i]!);
    else if (/^--(import|require|loader|experimental-loader|conditions)=/.test(a) || a === '--no-warnings') out.push(a);
  }
  return out;
};

const busyError = (message: string) =>
  new BasinError(503, 'query_busy', `${message} Retry in a moment, or raise api.query_concurrency / api.query_queue_size.`, { retry_after_seconds: 1 }, { 'retry-after': '1' });

/**
 * Runs queries in child processes, never in the server: each query process has its own DuckDB
 * instance (memory_limit, one thread), the server polls its RSS and kills it over api.query_memory_mb
 * (400 query_resource_limit), and kills it when the wall-clock deadline passes (400 query_timeout).
 * At most `size` queries run at once; up to `queueSize` wait (until their deadline), further ones get
 * 503 query_busy. So the server's own event loop and libuv pool (bcrypt, file I/O) never run a query.
 */
export class QueryPool {
  private readonly workers: Worker[] = [];
  private readonly waiting: Waiting[] = [];
  private nextId = 1;
  private closed = false;
  /** the largest RSS seen of any query process (bench and tests report it) */
  peakChildRss = 0;

  constructor(
    private readonly settings: () => PoolSettings,
    private readonly log: Logger,
  ) {}

  get running(): number {
    return this.workers.filter((w) => w.busy).length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `job`: at most `timeoutSeconds` waiting for a slot, then at most `timeoutSeconds` running. */
  run(job: QueryJob, timeoutSeconds: number): Promise<Buffer> {
    const timeoutMs = timeoutSeconds * 1000;
    if (this.closed) return Promise.reject(new BasinError(503, 'shutting_down', 'The server is shutting down.'));
    const s = this.settings();
    const idle = this.workers.find((w) => !w.busy);
    if (idle || this.workers.length < s.size) return this.dispatch(idle ?? this.spawn(), job, timeoutSeconds);
    if (this.waiting.length >= s.queueSize) {
      return Promise.reject(busyError(`All ${s.size} query slots are busy and ${this.waiting.length} queries are waiting.`));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const entry: Waiting = {
        job,
        timeoutSeconds,
        resolve,
        reject,
        timer: setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(entry), 1);
          reject(busyError(`No query slot became free within ${Math.round(timeoutMs / 1000)} seconds (api.query_timeout_seconds).`));
        }, timeoutMs),
      };
      this.waiting.push(entry);
    });
  }

  private spawn(): Worker {
    const s = this.settings();
    const child = fork(CHILD_FILE, [], {
      execArgv: childExecArgv(),
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // the query process gets no secrets from the server's environment
      env: {
        PATH: process.env.PATH ?? '',
        NODE_OPTIONS: process.env.NODE_OPTIONS ?? '',
        TMPDIR: process.env.TMPDIR ?? '',
        BASIN_QUERY_DUCKDB_MB: String(Math.max(64, Math.floor(s.memoryMb / 2))),
      },
    });
    const worker: Worker = {
      child,
      busy: false,
      ready: new Promise<void>((resolve, reject) => {
        const onMessage = (m: FromChild) => {
          if ('ready' in m) (child.off('message', onMessage), resolve());
        };
        child.on('message', onMessage);
        child.once('exit', (code, signal) => reject(new Error(`the query process ended while starting (${signal ?? `exit ${code}`})`)));
      }),
    };
    worker.ready.catch(() => {});
    // a process that never reports ready (a broken install) must not hold its queries forever
    const startup = setTimeout(() => child.kill('SIGKILL'), STARTUP_TIMEOUT_MS);
    startup.unref();
    void worker.ready.then(
      () => clearTimeout(startup),
      () => clearTimeout(startup),
    );
    child.once('exit', () => {
      const i = this.workers.indexOf(worker);
      if (i >= 0) this.workers.splice(i, 1);
      this.pump();
    });
    child.on('error', (err) => this.log.warn({ err }, 'query process error'));
    // a lower CPU priority: on a small machine busy query processes must not slow logins and page loads
    try {
      if (child.pid) os.setPriority(child.pid, 10);
    } catch {
      /* not permitted here: the process keeps the default priority */
    }
    this.workers.push(worker);
    return worker;
  }

  private async dispatch(worker: Worker, job: QueryJob, timeoutSeconds: number): Promise<Buffer> {
    worker.busy = true;
    const capBytes = this.settings().memoryMb * 1024 * 1024;
    const id = this.nextId++;
    let outcome: 'timeout' | 'memory' | null = null;
    let rssPoll: NodeJS.Timeout | undefined;
    let timer: NodeJS.Timeout | undefined;
    let onMessage: ((m: FromChild) => void) | undefined;
    let onExit: ((code: number | null, signal: NodeJS.Signals | null) => void) | undefined;
    const kill = (why: 'timeout' | 'memory') => {
      if (outcome) return;
      outcome = why;
      worker.child.kill('SIGKILL');
    };
    try {
      return await new Promise<Buffer>((resolve, reject) => {
        onExit = (code, signal) => {
          if (this.closed) reject(new BasinError(503, 'shutting_down', 'The server is shutting down.'));
          else if (outcome === 'timeout') reject(timeoutError(timeoutSeconds));
          else if (outcome === 'memory' || signal === 'SIGKILL') reject(memoryError(this.settings().memoryMb));
          else reject(new BasinError(400, 'query_failed', `The query process ended unexpectedly (${signal ?? `exit code ${code}`}).`));
        };
        onMessage = (m: FromChild) => {
          if (!('id' in m) || m.id !== id) return;
          if (m.ok) resolve(Buffer.from(m.body.buffer, m.body.byteOffset, m.body.byteLength));
          else if (m.error.code === 'query_resource_limit') reject(memoryError(this.settings().memoryMb, m.error.message));
          else reject(new BasinError(m.error.status, m.error.code, m.error.message, m.error.details));
        };
        worker.child.on('message', onMessage);
        worker.child.once('exit', onExit);

        rssPoll = setInterval(() => {
          const rss = processRss(worker.child.pid ?? 0);
          if (rss === null) return;
          if (rss > this.peakChildRss) this.peakChildRss = rss;
          if (rss > capBytes) kill('memory');
        }, RSS_POLL_MS);
        worker.ready.then(
          () => {
            // the run itself gets the whole timeout: starting a process or waiting in the queue is not the query's fault
            timer = setTimeout(() => kill('timeout'), timeoutSeconds * 1000);
            worker.child.send({ id, job } satisfies ToChild);
          },
          (err: Error) => reject(new BasinError(503, 'query_engine_unavailable', `The query engine could not start: ${err.message}`)),
        );
      });
    } finally {
      clearTimeout(timer);
      clearInterval(rssPoll);
      if (onMessage) worker.child.off('message', onMessage);
      if (onExit) worker.child.off('exit', onExit);
      worker.busy = false;
      // a process that grew large keeps its memory: retire it (the next query starts a fresh one)
      const rss = processRss(worker.child.pid ?? 0);
      if (outcome || (rss !== null && rss > capBytes / 2)) this.retire(worker);
      this.pump();
    }
  }

  private retire(worker: Worker): void {
    const i = this.workers.indexOf(worker);
    if (i >= 0) this.workers.splice(i, 1);
    if (worker.child.exitCode === null && worker.child.signalCode === null) worker.child.kill('SIGKILL');
  }

  /** hands the oldest waiting query to a free (or new) process */
  private pump(): void {
    if (this.closed) return;
    const next = this.waiting[0];
    if (!next) return;
    const idle = this.workers.find((w) => !w.busy && w.child.exitCode === null && w.child.signalCode === null);
    if (!idle && this.workers.length >= this.settings().size) return;
    this.waiting.shift();
    clearTimeout(next.timer);
    this.dispatch(idle ?? this.spawn(), next.job, next.timeoutSeconds).then(next.resolve, next.reject);
  }

  /** stops every query process (running queries end with 503) */
  close(): void {
    this.closed = true;
    for (const w of this.waiting.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new BasinError(503, 'shutting_down', 'The server is shutting down.'));
    }
    for (const w of this.workers) w.child.kill('SIGKILL');
  }
}

const timeoutError = (s: number) =>
  new BasinError(400, 'query_timeout', `The query ran longer than ${s} seconds and was stopped (api.query_timeout_seconds).`, { timeout_seconds: s });

const memoryError = (mb: number, message?: string) =>
  new BasinError(400, 'query_resource_limit', message ?? `The query needed more than ${mb} MB of memory and was stopped (api.query_memory_mb). Narrow it: filter, aggregate or add a LIMIT.`, { memory_limit_mb: mb });
