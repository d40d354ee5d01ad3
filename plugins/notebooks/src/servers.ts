import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { companionProcessEnv, companionWarehouseEnv, diesWithParent, localPortFree, type Logger, type ReadOnlyConnection } from '@basin/core';
import { notebookErrors } from './errors.js';

/** One running marimo server, serving one notebook under /notebooks/{name}/ on a loopback port. */
export interface NotebookServer {
  name: string;
  port: number;
  pid: number;
  /** marimo's access token: only the proxy sends it (as HTTP Basic), the browser never sees it */
  token: string;
  started_at: string;
  child: ChildProcess;
  /** the last lines marimo printed (shown when it fails to start) */
  output: string[];
  /** when the proxy last passed a request to it (ms since epoch, Basin's clock) */
  last_active: number;
  /** WebSockets open through the proxy now (an open editor tab keeps one) */
  sockets: number;
}

export interface NotebookServersDeps {
  marimo: () => Promise<string>;
  projectDir: string;
  notebookFile: (name: string) => string;
  servingPath: () => string;
  /** a server warehouse's read-only connection (null: DuckDB; the serving copy is all there is) */
  warehouse?: () => ReadOnlyConnection | null;
  basePort: () => number;
  maxServers: () => number;
  startTimeoutMs: () => number;
  log: Logger;
  now: () => Date;
}

/** Basin's Python side of notebooks (basin_warehouse.py): beside src/ and dist/, one level up from either */
export const NOTEBOOK_PYTHON_DIR = fileURLToPath(new URL('../python', import.meta.url));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** how Basin authenticates to a marimo server it started (the proxy adds it; the browser never sees the token) */
export const marimoAuthorization = (token: string) => `Basic ${Buffer.from(`basin:${token}`).toString('base64')}`;

/** marimo could not bind the port it was given; `failure` is the error to show if no other port works */
class PortTakenError extends Error {
  constructor(readonly failure: Error) {
    super('notebook port taken');
  }
}

/**
 * Starts, tracks and stops the marimo servers of locked notebooks: at most `max_servers` at once, each
 * bound to 127.0.0.1 with its own token, started with the serving copy's path in BASIN_SERVING_DB.
 */
export class NotebookServers {
  private readonly servers = new Map<string, NotebookServer>();
  private readonly starting = new Map<string, Promise<NotebookServer>>();

  constructor(private readonly d: NotebookServersDeps) {}

  get(name: string): NotebookServer | undefined {
    return this.servers.get(name);
  }

  list(): NotebookServer[] {
    return [...this.servers.values()];
  }

  /** Checks the file with `marimo check`; a notebook that does not parse gets marimo's own message. */
  async check(name: string): Promise<void> {
    const marimo = await this.d.marimo();
    const r = spawnSync(marimo, ['check', this.d.notebookFile(name)], { encoding: 'utf8', timeout: 60_000, cwd: this.d.projectDir });
    if (r.status === 0) return;
    const text = `${r.stdout}\n${r.stderr}`.trim();
    const critical = text.split(/\n(?=\S)/).filter((b) => /^(critical|error)|Failed to parse/.test(b));
    throw notebookErrors.notebook_invalid({ name, marimo: critical.join('\n') || text });
  }

  /** The notebook's server, started when needed (concurrent callers share one start). */
  start(name: string): Promise<NotebookServer> {
    const running = this.servers.get(name);
    if (running) return Promise.resolve(running);
    const pending = this.starting.get(name);
    if (pending) return pending;
    if (this.servers.size + this.starting.size >= this.d.maxServers()) {
      return Promise.reject(
        notebookErrors.notebook_servers_busy({ max: this.d.maxServers() }, { headers: { 'retry-after': '30' } }),
      );
    }
    const p = this.spawn(name).finally(() => this.starting.delete(name));
    this.starting.set(name, p);
    return p;
  }

  private async freePort(skip: ReadonlySet<number> = new Set()): Promise<number> {
    const used = new Set([...this.list().map((s) => s.port), ...skip]);
    const base = this.d.basePort();
    for (let port = base; port < base + 200 && port < 65536; port++) {
      if (!used.has(port) && (await localPortFree(port))) return port;
    }
    throw notebookErrors.notebook_port_unavailable({ base });
  }

  /** the warehouse as the notebook process sees it: BASIN_SERVING_DB always, BASIN_WAREHOUSE_* on a server warehouse */
  warehouseEnv(): Record<string, string> {
    const conn = this.d.warehouse?.() ?? null;
    return { BASIN_SERVING_DB: this.d.servingPath(), ...(conn ? companionWarehouseEnv(conn, this.d.servingPath()) : {}) };
  }

  /**
   * A port found free can be taken before marimo binds it (another Basin, another program on this
   * host): then marimo exits with "address already in use", and the next free port is tried.
   */
  private async spawn(name: string): Promise<NotebookServer> {
    const taken = new Set<number>();
    for (let attempt = 1; ; attempt++) {
      const port = await this.freePort(taken);
      try {
        return await this.spawnOn(name, port);
      } catch (e) {
        if (!(e instanceof PortTakenError) || attempt >= 5) throw e instanceof PortTakenError ? e.failure : e;
        this.d.log.warn({ notebook: name, port }, 'notebook port taken before marimo bound it; trying the next one');
        taken.add(port);
      }
    }
  }

  private async spawnOn(name: string, port: number): Promise<NotebookServer> {
    const marimo = await this.d.marimo();
    const token = crypto.randomBytes(24).toString('base64url');
    // marimo reads the token from a file (never from argv, which `ps` shows); removed once it is up
    const tokenDir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-nb-'));
    const tokenFile = path.join(tokenDir, 'token');
    fs.writeFileSync(tokenFile, token, { mode: 0o600 });
    const args = ['edit', this.d.notebookFile(name), '--host', '127.0.0.1', '-p', String(port), '--headless', '--skip-update-check', '--base-url', `/notebooks/${name}`, '--token-password-file', tokenFile];
    // stops with Basin, a SIGKILL included: an orphaned marimo kept its port and the notebook's file
    const run = diesWithParent(marimo, args);
    const child = spawn(run.command, run.args, {
      cwd: this.d.projectDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      // the templates read through basin_warehouse (on PYTHONPATH): the serving copy, or the server warehouse's read-only user
      env: { ...companionProcessEnv({ ...process.env, ...this.warehouseEnv() }, this.d.warehouse?.() ?? null, this.d.servingPath()), PYTHONPATH: [NOTEBOOK_PYTHON_DIR, process.env.PYTHONPATH].filter(Boolean).join(path.delimiter), MARIMO_SKIP_UPDATE_CHECK: '1', DO_NOT_TRACK: '1' },
      detached: false,
    });
    const server: NotebookServer = { name, port, pid: child.pid ?? 0, token, started_at: new Date().toISOString(), child, output: [], last_active: this.d.now().getTime(), sockets: 0 };
    const onData = (b: Buffer) => {
      for (const line of b.toString().split('\n')) {
        if (!line.trim() || line.includes(token)) continue; // marimo prints its URL with the token
        server.output.push(line);
        if (server.output.length > 40) server.output.shift();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    let exited = false;
    child.once('exit', (code, signal) => {
      exited = true;
      if (this.servers.get(name) === server) {
        this.servers.delete(name);
        this.d.log.warn({ notebook: name, code, signal }, 'notebook server exited');
      }
    });
    // another marimo may hold the port (another Basin project's notebook of the same name): its
    // health path answers too, but only ours takes our token
    let foreign = false;
    try {
      const deadline = Date.now() + this.d.startTimeoutMs();
      for (;;) {
        if (exited) throw new Error('marimo exited while starting');
        try {
          const res = await fetch(`http://127.0.0.1:${port}/notebooks/${name}/health`);
          if (res.ok) {
            const page = await fetch(`http://127.0.0.1:${port}/notebooks/${name}/`, { headers: { authorization: marimoAuthorization(token) } });
            if ((await page.text()).includes('marimo-server-token')) break;
            foreign = true;
          }
        } catch {
          /* not listening yet */
        }
        if (foreign) throw new Error(`another server answers on port ${port}`);
        if (Date.now() > deadline) throw new Error(`marimo did not answer within ${Math.round(this.d.startTimeoutMs() / 1000)} s`);
        await sleep(200);
      }
    } catch (e) {
      child.kill('SIGKILL');
      const failure = notebookErrors.notebook_server_failed({ name, reason: (e as Error).message, output: server.output.slice(-10).join('\n') });
      if (foreign || (exited && server.output.some((l) => /address already in use/i.test(l)))) throw new PortTakenError(failure);
      throw failure;
    } finally {
      fs.rmSync(tokenDir, { recursive: true, force: true });
    }
    this.servers.set(name, server);
    this.d.log.info({ notebook: name, port, pid: server.pid }, 'notebook server started');
    return server;
  }

  /** The proxy passed a request to the notebook's server. */
  touch(name: string): void {
    const s = this.servers.get(name);
    if (s) s.last_active = this.d.now().getTime();
  }

  /** A WebSocket to the notebook's server opened through the proxy; the returned function marks it closed. */
  socketOpened(name: string): () => void {
    const s = this.servers.get(name);
    if (!s) return () => undefined;
    s.sockets += 1;
    let open = true;
    return () => {
      if (!open) return;
      open = false;
      s.sockets -= 1;
      s.last_active = this.d.now().getTime();
    };
  }

  /** Servers with no open WebSocket and no request for `idleMs` (nobody has the editor open). */
  idle(idleMs: number): string[] {
    const now = this.d.now().getTime();
    return this.list()
      .filter((s) => s.sockets === 0 && now - s.last_active >= idleMs)
      .map((s) => s.name);
  }

  /** Stops a notebook's server: SIGTERM, then SIGKILL after 5 s. */
  async stop(name: string): Promise<void> {
    const s = this.servers.get(name);
    if (!s) return;
    this.servers.delete(name);
    if (s.child.exitCode !== null || s.child.signalCode !== null) return;
    const gone = new Promise<void>((r) => s.child.once('exit', () => r()));
    s.child.kill('SIGTERM');
    const t = setTimeout(() => s.child.kill('SIGKILL'), 5000);
    await gone;
    clearTimeout(t);
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.starting.values()]);
    await Promise.all(this.list().map((s) => this.stop(s.name)));
  }
}
