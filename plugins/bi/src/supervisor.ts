import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { companionProcessEnv, diesWithParent, httpCall, localPortFree, writeFileAtomic, type Logger, type ManagedVenv, type ReadOnlyConnection } from '@basin/core';
import { PROVISION_SCRIPT, SUPERSET_CONFIG } from './superset-files.js';

export type SupersetState = 'stopped' | 'installing' | 'initializing' | 'starting' | 'running' | 'failed';

export interface SupersetStatus {
  state: SupersetState;
  started_at: string | null;
  restarts: number;
  error: string | null;
  /** Superset's last output lines, when it failed */
  last_output: string[];
}

export interface SupervisorDeps {
  venv: ManagedVenv;
  venvDir: string;
  /** .basin/bi: config, Superset's metadata database, the secret key */
  home: string;
  port: () => number;
  servingPath: () => string;
  /** a server warehouse's read-only connection (null: DuckDB, Superset opens the serving copy) */
  warehouse?: () => ReadOnlyConnection | null;
  startTimeoutMs: () => number;
  log: Logger;
  /** the warehouse's id in Superset, once registered */
  onDatabaseId: (id: number) => void;
  /** after each full start (not after a crash restart): provisions the project's dashboards; failures are logged */
  afterStart?: (databaseId: number) => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** gunicorn could not bind the port it was given; `failure` is the error to show if no other port works */
class PortTakenError extends Error {
  constructor(readonly failure: Error) {
    super('Superset port taken');
  }
}

/** ports tried after platform.bi_port when another program holds it */
const PORT_TRIES = 20;

/**
 * Installs, initialises, starts and keeps Superset running on 127.0.0.1:platform.bi_port (gunicorn,
 * one worker with threads), or on the next free port when another program holds that one; restarts
 * it with a growing pause when it dies; stops it on shutdown, and it stops by itself when Basin dies.
 */
export class SupersetSupervisor {
  private child: ChildProcess | null = null;
  private stopping = false;
  private status: SupersetStatus = { state: 'stopped', started_at: null, restarts: 0, error: null, last_output: [] };
  private output: string[] = [];
  /** the shared secret of the trusted-header sign-on: new at every start, known only to Basin and Superset */
  readonly proxySecret = crypto.randomBytes(32).toString('base64url');
  private running: Promise<void> | null = null;
  /** the warehouse's database id in Superset (null before the first start) */
  databaseId: number | null = null;
  /** the port gunicorn was last started on */
  private boundPort: number | null = null;

  constructor(private readonly d: SupervisorDeps) {}

  /** where Superset listens: platform.bi_port, or the free port it was started on instead */
  get port(): number {
    return this.boundPort ?? this.d.port();
  }

  get current(): SupersetStatus {
    return { ...this.status, last_output: this.status.state === 'failed' ? this.recentOutput(20) : [] };
  }

  /** Superset's last `lines` output lines, whatever its state (what went wrong in a chart request, say) */
  recentOutput(lines: number): string[] {
    return this.output.slice(-lines);
  }

  /** Superset is about to be started (`basin start` launches it a moment after listening): `starting` until then */
  announceStart(): void {
    if (this.status.state === 'stopped') this.status = { ...this.status, state: 'starting' };
  }

  /** Starts Superset (once; later calls wait for the same start). Resolves when it answers /bi/health. */
  start(): Promise<void> {
    this.stopping = false;
    this.running ??= this.boot().catch((e) => {
      this.fail((e as Error).message);
      this.running = null;
      throw e;
    });
    return this.running;
  }

  private fail(message: string): void {
    this.status = { ...this.status, state: 'failed', error: message };
    this.d.log.error({ error: message, output: this.output.slice(-10) }, 'Superset failed');
  }

  private secretKey(): string {
    const file = path.join(this.d.home, 'secret_key');
    if (!fs.existsSync(file)) writeFileAtomic(file, crypto.randomBytes(48).toString('base64url'), 0o600);
    return fs.readFileSync(file, 'utf8').trim();
  }

  private env(): NodeJS.ProcessEnv {
    return {
      ...companionProcessEnv(process.env, this.d.warehouse?.() ?? null, this.d.servingPath()),
      SUPERSET_CONFIG_PATH: path.join(this.d.home, 'superset_config.py'),
      BASIN_BI_HOME: this.d.home,
      BASIN_BI_SECRET_KEY: this.secretKey(),
      BASIN_BI_PROXY_SECRET: this.proxySecret,
      PYTHONUNBUFFERED: '1',
      SUPERSET_LOAD_EXAMPLES: 'no',
    };
  }

  private bin(name: string): string {
    return path.join(path.dirname(this.d.venv.python(this.d.venvDir)), name);
  }

  private remember(b: Buffer): void {
    for (const line of b.toString().split('\n')) {
      if (!line.trim()) continue;
      this.output.push(line);
      if (this.output.length > 200) this.output.shift();
    }
  }

  /** Runs a Superset command to completion; throws with its last output when it fails. */
  private exec(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<string> {
    return new Promise((resolve, reject) => {
      const run = diesWithParent(cmd, args);
      const c = spawn(run.command, run.args, { cwd: this.d.home, env: { ...this.env(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      c.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        this.remember(b);
      });
      c.stderr.on('data', (b: Buffer) => this.remember(b));
      c.on('error', reject);
      c.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${path.basename(cmd)} ${args[0] ?? ''} exited with ${code}: ${this.output.slice(-5).join(' | ')}`))));
    });
  }

  private async boot(): Promise<void> {
    fs.mkdirSync(this.d.home, { recursive: true, mode: 0o700 });
    this.status = { ...this.status, state: 'installing', error: null };
    await this.d.venv.ensure(this.d.venvDir, (l) => this.d.log.info(`[superset venv] ${l}`));
    writeFileAtomic(path.join(this.d.home, 'superset_config.py'), SUPERSET_CONFIG);
    writeFileAtomic(path.join(this.d.home, 'provision.py'), PROVISION_SCRIPT);

    this.status.state = 'initializing';
    // migrations and `superset init` run once per pin set (and again when the metadata database is new)
    const stamp = path.join(this.d.home, `.initialized-${this.d.venv.requirementsHash()}`);
    const migrate = !fs.existsSync(stamp) || !fs.existsSync(path.join(this.d.home, 'superset.db'));
    const t0 = Date.now();
    const provision = () => this.exec(this.d.venv.python(this.d.venvDir), [path.join(this.d.home, 'provision.py')], migrate ? { BASIN_BI_MIGRATE: '1' } : {});
    let provisioned: string;
    if (migrate) {
      // gunicorn must not serve an unmigrated database: one after the other
      provisioned = await provision();
      fs.writeFileSync(stamp, new Date().toISOString());
      this.d.log.info({ ms: Date.now() - t0 }, 'Superset metadata migrated and initialised');
      await this.launch();
    } else {
      // the warehouse registration and gunicorn's start each import Superset: side by side
      const [p, l] = await Promise.allSettled([provision(), this.launch()]);
      if (p.status === 'rejected' || l.status === 'rejected') {
        // no half-started Superset: a gunicorn that came up is stopped without a restart
        const c = this.child;
        this.child = null;
        c?.removeAllListeners('exit');
        c?.kill('SIGKILL');
        throw p.status === 'rejected' ? p.reason : (l as PromiseRejectedResult).reason;
      }
      provisioned = p.value;
    }
    const id = /"database_id":\s*(\d+)/.exec(provisioned)?.[1];
    if (id) this.d.onDatabaseId(Number(id));
    this.databaseId = id ? Number(id) : null;
    if (this.databaseId !== null && this.d.afterStart) await this.d.afterStart(this.databaseId).catch((e) => this.d.log.warn({ err: e }, 'Superset: dashboard provisioning failed'));
  }

  /**
   * Starts gunicorn on platform.bi_port or, when another program holds it (another project's Superset,
   * anything on 3000), on the next free port: the proxy and the sign-on follow `port`.
   */
  private async launch(): Promise<void> {
    this.status.state = 'starting';
    const configured = this.d.port();
    const taken = new Set<number>();
    for (let attempt = 1; ; attempt++) {
      let port = configured;
      while ((taken.has(port) || !(await localPortFree(port))) && port < configured + PORT_TRIES) port++;
      if (port >= configured + PORT_TRIES) throw new Error(`ports ${configured}-${configured + PORT_TRIES - 1} are all taken; set platform.bi_port in .basin/project.yml to a free port`);
      try {
        await this.launchOn(port);
        if (port !== configured) this.d.log.warn({ port, configured }, `port ${configured} (platform.bi_port) is taken by another program; Superset runs on ${port} behind /bi/`);
        return;
      } catch (e) {
        if (!(e instanceof PortTakenError) || attempt >= 5) throw e instanceof PortTakenError ? e.failure : e;
        taken.add(port);
      }
    }
  }

  private async launchOn(port: number): Promise<void> {
    const gunicorn = diesWithParent(this.bin('gunicorn'), ['-w', '1', '-k', 'gthread', '--threads', '8', '-b', `127.0.0.1:${port}`, '--timeout', '120', '--graceful-timeout', '5', 'superset.app:create_app()']);
    const child = spawn(gunicorn.command, gunicorn.args, {
      cwd: this.d.home,
      env: this.env(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    // gunicorn's own lines (the provisioning script may write beside it): did it bind, or fail to? It
    // retries a taken port for ~5 s before it exits, and meanwhile whatever holds the port (another
    // project's Superset) answers the health probe: only an answer after gunicorn said it listens counts
    let portTaken = false;
    let bound = false;
    let text = '';
    const listening = `Listening at: http://127.0.0.1:${port} `;
    const watch = (b: Buffer) => {
      this.remember(b);
      text = (text + b.toString()).slice(-4000);
      if (!bound && text.includes(listening)) {
        bound = true;
        portTaken = false;
      } else if (!bound && /address already in use|connection in use/i.test(text)) portTaken = true;
    };
    child.stdout?.on('data', watch);
    child.stderr?.on('data', watch);
    let up = false;
    child.once('exit', (code, signal) => {
      if (this.child === child) this.child = null;
      // a start that could not bind is retried on another port by launch()
      if (this.stopping || (!up && portTaken)) return;
      this.fail(`Superset exited (${signal ?? `code ${code}`})`);
      void this.restartLater();
    });
    const deadline = Date.now() + this.d.startTimeoutMs();
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        const failure = new Error(`Superset exited while starting: ${this.output.slice(-5).join(' | ')}`);
        // the port was free a moment ago: someone bound it before gunicorn did
        throw portTaken ? new PortTakenError(failure) : failure;
      }
      try {
        // node:http, not fetch: undici would load for this probe at every start (core's httpCall);
        // bounded, so a worker that accepts and hangs still meets the deadline below
        if (bound) {
          const res = await httpCall(`http://127.0.0.1:${port}/bi/health`, { method: 'GET', timeoutMs: 2000 });
          if (res.status >= 200 && res.status < 300) break;
        }
      } catch {
        /* not listening yet */
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`Superset did not answer on port ${port} within ${Math.round(this.d.startTimeoutMs() / 1000)} s`);
      }
      await sleep(300);
    }
    up = true;
    this.boundPort = port;
    this.status = { ...this.status, state: 'running', started_at: new Date().toISOString(), error: null };
    this.d.log.info({ port, pid: child.pid }, 'Superset is running');
  }

  /** After a crash: wait 2, 4, 8 ... up to 60 s, then start gunicorn again (not the install and init steps). */
  private async restartLater(): Promise<void> {
    this.status.restarts += 1;
    const pause = Math.min(60_000, 1000 * 2 ** Math.min(this.status.restarts, 6));
    await sleep(pause);
    if (this.stopping || this.child) return;
    try {
      await this.launch();
    } catch (e) {
      this.fail((e as Error).message);
      if (!this.stopping) void this.restartLater();
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const c = this.child;
    this.child = null;
    this.status = { ...this.status, state: 'stopped' };
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const gone = new Promise<void>((r) => c.once('exit', () => r()));
    c.kill('SIGTERM');
    const t = setTimeout(() => c.kill('SIGKILL'), 8000);
    await gone;
    clearTimeout(t);
  }

  /** gunicorn's master process id while it runs (benchmarks read its memory) */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  /** Stops the running gunicorn as if it crashed (tests of the restart). */
  crashForTest(): void {
    this.child?.kill('SIGKILL');
  }
}
