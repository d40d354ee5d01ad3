import path from 'node:path';
import { SimpleIntervalJob, Task, ToadScheduler } from 'toad-scheduler';
import { errors, formatIssue, loadConfig, type Clock, type ConfigIssue, type EventBus, type Logger } from '@basin/core';
import { cronExpression, schedulesFileSpec, type Schedule, type SchedulesFile } from './config.js';
import { countRunsBetween, nextRunAfter, timingSignature } from './cron.js';
import { MAX_LOG_CHARS, type JobRecord, type JobStatus, type JobStore, type JobTrigger } from './store.js';
import { runWork, type WorkDeps } from './work.js';
import { schedulerErrors } from './errors.js';

/** How often the production ticker checks for due schedules, retries and timeouts. */
export const TICK_SECONDS = 10;

type AbortReason = 'timeout' | 'cancelled' | 'shutdown';

interface ActiveJob {
  job: JobRecord;
  schedule: Schedule;
  controller: AbortController;
  timeoutAt: number | null;
  log: string;
  done: Promise<JobRecord>;
}

export interface ScheduleView extends Schedule {
  cron_expression: string;
  next_run: string | null;
  last_run: JobRecord | null;
  active_jobs: JobRecord[];
}

export interface SchedulerDeps {
  projectDir: string;
  initial: SchedulesFile;
  store: JobStore;
  clock: Clock;
  events: EventBus;
  log: Logger;
  work: WorkDeps;
}

/**
 * Runs schedules.yml. Every decision reads `clock.now()`: `tick()` fires what is due, retries what
 * failed and times out what ran too long, so tests drive it with a ManualClock and explicit ticks;
 * in production a toad-scheduler interval job calls `tick()` every TICK_SECONDS.
 */
export class Scheduler {
  private file: SchedulesFile;
  private readonly next = new Map<string, Date>();
  private readonly active = new Map<string, ActiveJob>();
  private readonly finishing = new Set<Promise<unknown>>();
  private toad?: ToadScheduler;
  private started = false;

  constructor(private readonly d: SchedulerDeps) {
    this.file = d.initial;
  }

  current(): SchedulesFile {
    return this.file;
  }

  get(name: string): Schedule | undefined {
    return this.file.schedules.find((s) => s.name === name);
  }

  /**
   * Start-up: marks jobs interrupted by the last shutdown, applies misfire rules to runs that fell
   * due while the server was down, and plans the next run of every enabled schedule.
   */
  start(opts: { ticker?: boolean } = {}): void {
    if (this.started) return;
    this.started = true;
    const now = this.d.clock.now();
    for (const j of this.d.store.byStatus('running')) {
      this.d.store.update(j.id, { status: 'failed', finished_at: now.toISOString(), error: 'interrupted: the server stopped while this job was running' });
    }
    for (const s of this.enabled()) this.planAfterDowntime(s, now);
    if (opts.ticker !== false) {
      this.toad = new ToadScheduler();
      this.toad.addSimpleIntervalJob(new SimpleIntervalJob({ seconds: TICK_SECONDS }, new Task('scheduler-tick', () => this.tick()), { id: 'scheduler-tick', preventOverrun: true }));
    }
  }

  /** Cancels running work (recorded as cancelled) and stops the ticker. */
  async stop(): Promise<void> {
    this.toad?.stop();
    for (const a of this.active.values()) a.controller.abort('shutdown' satisfies AbortReason);
    await this.idle();
  }

  /** One scheduling step at `clock.now()`; returns the jobs it started or recorded. */
  tick(): JobRecord[] {
    const now = this.d.clock.now();
    const out: JobRecord[] = [];
    for (const a of this.active.values()) {
      if (a.timeoutAt !== null && now.getTime() >= a.timeoutAt) a.controller.abort('timeout' satisfies AbortReason);
    }
    for (const q of this.d.store.byStatus('queued')) {
      if (!q.scheduled_for || new Date(q.scheduled_for).getTime() > now.getTime()) continue;
      const s = this.get(q.schedule);
      if (!s || !s.enabled) {
        this.d.store.update(q.id, { status: 'skipped', finished_at: now.toISOString(), error: 'the schedule was removed or disabled before this retry ran' });
        continue;
      }
      if (this.active.has(s.name)) continue; // retried once the current run ends
      out.push(this.launch(s, 'retry', new Date(q.scheduled_for), q));
    }
    for (const s of this.enabled()) {
      const due = this.next.get(s.name);
      if (!due || due.getTime() > now.getTime()) continue;
      // plan the next run first so a slow job or an exception cannot fire this one twice
      this.plan(s, now);
      out.push(this.launch(s, 'schedule', due));
    }
    return out;
  }

  /** Runs a schedule now (API trigger). Throws 404 for an unknown name, 409 when it is already running. */
  trigger(name: string): JobRecord {
    const s = this.get(name);
    if (!s) throw errors.notFound(`Schedule "${name}"`);
    const job = this.launch(s, 'manual', null);
    if (job.status === 'skipped') {
      throw schedulerErrors.schedule_running(
        { name, job: this.active.get(name)?.job.id },
        { details: { skipped_job_id: job.id, running_job_id: this.active.get(name)?.job.id ?? null } },
      );
    }
    return job;
  }

  /** Cancels a running job (its sync, dbt run or script is stopped) or a queued retry. */
  cancel(jobId: string): JobRecord {
    const running = [...this.active.values()].find((a) => a.job.id === jobId);
    if (running) {
      running.controller.abort('cancelled' satisfies AbortReason);
      return { ...running.job, status: 'running' };
    }
    const job = this.d.store.get(jobId);
    if (!job) throw errors.notFound(`Job "${jobId}"`);
    if (job.status !== 'queued') throw schedulerErrors.job_not_running({ job: jobId, status: job.status }, { details: { status: job.status } });
    this.d.store.update(jobId, { status: 'cancelled', finished_at: this.d.clock.now().toISOString(), error: 'cancelled before it started' });
    return this.d.store.get(jobId)!;
  }

  /** Resolves when the job has finished (immediately for a finished one). */
  async wait(jobId: string): Promise<JobRecord | undefined> {
    const a = [...this.active.values()].find((x) => x.job.id === jobId);
    if (a) await a.done;
    await Promise.all([...this.finishing]);
    return this.d.store.get(jobId);
  }

  /** Resolves when no job is running. */
  async idle(): Promise<void> {
    while (this.active.size || this.finishing.size) {
      await Promise.all([...[...this.active.values()].map((a) => a.done), ...this.finishing]);
    }
  }

  activeJobs(): JobRecord[] {
    return [...this.active.values()].map((a) => a.job);
  }

  nextRun(name: string): Date | null {
    return this.next.get(name) ?? null;
  }

  view(s: Schedule): ScheduleView {
    const queued = this.d.store.byStatus('queued').filter((j) => j.schedule === s.name);
    const running = this.active.get(s.name);
    return {
      ...s,
      cron_expression: cronExpression(s.cron),
      next_run: s.enabled ? (this.next.get(s.name)?.toISOString() ?? null) : null,
      last_run: this.d.store.lastRun(s.name) ?? null,
      active_jobs: [...(running ? [running.job] : []), ...queued],
    };
  }

  /**
   * Re-reads schedules.yml. The file is validated first with the config loader; on any problem the
   * running schedules stay as they are and a 400 lists every problem.
   */
  reload(): ScheduleView[] {
    const loaded = loadConfig({ projectDir: this.d.projectDir, files: [schedulesFileSpec], sections: [] });
    const mine = (i: ConfigIssue) => i.file === schedulesFileSpec.path || (schedulesFileSpec.aliases ?? []).includes(i.file);
    const problems = loaded.issues.filter((i) => mine(i) && i.severity === 'error');
    if (problems.length) {
      throw schedulerErrors.config_invalid(
        { file: path.basename(schedulesFileSpec.path), count: problems.length },
        { details: problems.map((i) => ({ file: i.file, line: i.line ?? null, column: i.column ?? null, path: i.path, message: i.message, text: formatIssue(i) })) },
      );
    }
    this.file = loaded.files.get(schedulesFileSpec.id)!.value as SchedulesFile;
    const now = this.d.clock.now();
    const keep = new Set(this.enabled().map((s) => s.name));
    for (const name of [...this.next.keys()]) {
      if (!keep.has(name)) {
        this.next.delete(name);
        this.d.store.forgetNextRun(name);
      }
    }
    for (const s of this.enabled()) {
      const saved = this.d.store.nextRunState(s.name);
      const planned = this.next.get(s.name);
      if (saved && planned && saved.signature === timingSignature(s) && planned.getTime() > now.getTime()) continue;
      this.plan(s, now);
    }
    this.d.log.info({ schedules: this.file.schedules.length }, 'schedules reloaded');
    return this.file.schedules.map((s) => this.view(s));
  }

  private enabled(): Schedule[] {
    return this.file.schedules.filter((s) => s.enabled);
  }

  private plan(s: Schedule, after: Date): void {
    const next = nextRunAfter(s, after);
    this.next.set(s.name, next);
    this.d.store.saveNextRun(s.name, timingSignature(s), next);
  }

  /** A run that fell due while the server was down runs now within misfire_grace_time, else is recorded as missed. */
  private planAfterDowntime(s: Schedule, now: Date): void {
    const saved = this.d.store.nextRunState(s.name);
    if (saved && saved.signature === timingSignature(s)) {
      const due = new Date(saved.next_run_at);
      if (due.getTime() <= now.getTime()) {
        const lateSeconds = (now.getTime() - due.getTime()) / 1000;
        const grace = s.misfire_grace_time ?? 0;
        const count = countRunsBetween(s, due, now);
        this.plan(s, now);
        if (lateSeconds <= grace) {
          this.launch(s, 'startup', due);
        } else {
          this.d.store.insert({
            schedule: s.name, type: s.type, status: 'missed', trigger: 'schedule', attempt: 1, retry_of: null, sources: s.sources ?? [],
            scheduled_for: due.toISOString(), queued_at: now.toISOString(), started_at: null, finished_at: now.toISOString(), duration_seconds: null, rows: null,
            error: `missed ${count} run(s) while the server was down (first due ${due.toISOString()}, ${Math.round(lateSeconds)} s late; misfire_grace_time is ${grace} s)`,
          });
          this.d.log.warn({ schedule: s.name, due: due.toISOString() }, 'schedule run missed while the server was down');
        }
        return;
      }
      this.next.set(s.name, due);
      return;
    }
    this.plan(s, now);
  }

  private record(s: Schedule, status: JobStatus, trigger: JobTrigger, scheduledFor: Date | null, error: string): JobRecord {
    const now = this.d.clock.now().toISOString();
    return this.d.store.insert({
      schedule: s.name, type: s.type, status, trigger, attempt: 1, retry_of: null, sources: s.sources ?? [],
      scheduled_for: scheduledFor?.toISOString() ?? null, queued_at: now, started_at: null, finished_at: now, duration_seconds: null, rows: null, error,
    });
  }

  /** Starts a job unless the schedule is already running (then records `skipped`: a schedule never overlaps itself). */
  private launch(s: Schedule, trigger: JobTrigger, scheduledFor: Date | null, queued?: JobRecord): JobRecord {
    const running = this.active.get(s.name);
    if (running) {
      return this.record(s, 'skipped', trigger, scheduledFor, `the previous run (job ${running.job.id}) was still running`);
    }
    const now = this.d.clock.now();
    if (!queued) {
      // a new regular run supersedes a retry still waiting
      for (const q of this.d.store.byStatus('queued').filter((j) => j.schedule === s.name)) {
        this.d.store.update(q.id, { status: 'skipped', finished_at: now.toISOString(), error: 'superseded by a newer run of the schedule' });
      }
    }
    let job: JobRecord;
    if (queued) {
      this.d.store.update(queued.id, { status: 'running', started_at: now.toISOString() });
      job = this.d.store.get(queued.id)!;
    } else {
      job = this.d.store.insert({
        schedule: s.name, type: s.type, status: 'running', trigger, attempt: 1, retry_of: null, sources: s.sources ?? [],
        scheduled_for: scheduledFor?.toISOString() ?? null, queued_at: now.toISOString(), started_at: now.toISOString(), finished_at: null, duration_seconds: null, rows: null, error: null,
      });
    }
    const controller = new AbortController();
    const a: ActiveJob = { job, schedule: s, controller, timeoutAt: s.timeout_minutes ? now.getTime() + s.timeout_minutes * 60_000 : null, log: '', done: Promise.resolve(job) };
    this.active.set(s.name, a);
    a.done = this.execute(a);
    void this.d.events.emit('schedule_job_started', { job_id: job.id, schedule: s.name, type: s.type, trigger, attempt: job.attempt, sources: job.sources });
    return job;
  }

  private async execute(a: ActiveJob): Promise<JobRecord> {
    const { job, schedule: s, controller } = a;
    const append = (t: string) => {
      a.log += t;
      if (a.log.length > MAX_LOG_CHARS) a.log = `[…earlier output cut…]\n${a.log.slice(-MAX_LOG_CHARS)}`;
    };
    // an abort settles the job at once even if the underlying work is slow to stop
    const aborted = new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true }));
    aborted.catch(() => {});
    let status: JobStatus;
    let rows: number | null = null;
    let error: string | null = null;
    try {
      await Promise.resolve();
      const r = await Promise.race([runWork(this.d.work, { schedule: s, signal: controller.signal, log: append }), aborted]);
      rows = r.rows;
      error = r.error;
      status = r.error ? 'failed' : 'succeeded';
    } catch (e) {
      if (controller.signal.aborted) {
        const reason = controller.signal.reason as AbortReason;
        status = reason === 'timeout' ? 'timed_out' : 'cancelled';
        error = reason === 'timeout' ? `timed out after ${s.timeout_minutes} minute(s); the work was cancelled` : reason === 'shutdown' ? 'cancelled: the server stopped' : 'cancelled by a user';
      } else {
        status = 'failed';
        error = (e as Error).message ?? String(e);
      }
    }
    const end = this.d.clock.now();
    const started = new Date(job.started_at!).getTime();
    const duration = Math.max(0, (end.getTime() - started) / 1000);
    if (error) append(`${status}: ${error}\n`);
    this.d.store.update(job.id, { status, finished_at: end.toISOString(), duration_seconds: duration, rows, error, log: a.log });
    this.active.delete(s.name);
    const willRetry = (status === 'failed' || status === 'timed_out') && job.attempt <= s.retries && this.get(s.name)?.enabled !== false;
    const finished = this.d.store.get(job.id)!;
    const fin = this.d.events.emit('schedule_job_finished', {
      job_id: job.id, schedule: s.name, type: s.type, status, trigger: job.trigger, attempt: job.attempt, sources: job.sources, rows, error, duration_seconds: duration, will_retry: willRetry,
    });
    this.track(fin);
    if (willRetry) this.queueRetry(s, finished, error ?? status, end);
    return finished;
  }

  private queueRetry(s: Schedule, failed: JobRecord, error: string, now: Date): void {
    const at = new Date(now.getTime() + s.retry_delay_seconds * 1000);
    const retry = this.d.store.insert({
      schedule: s.name, type: s.type, status: 'queued', trigger: 'retry', attempt: failed.attempt + 1, retry_of: failed.retry_of ?? failed.id, sources: failed.sources,
      scheduled_for: at.toISOString(), queued_at: now.toISOString(), started_at: null, finished_at: null, duration_seconds: null, rows: null, error: null,
    });
    this.track(
      this.d.events.emit('sync_retrying', {
        schedule: s.name, sources: failed.sources, error, attempt_number: failed.attempt, next_retry_at: at.toISOString(), job_id: failed.id, retry_job_id: retry.id,
      }),
    );
  }

  private track(p: Promise<unknown>): void {
    this.finishing.add(p);
    void p.finally(() => this.finishing.delete(p));
  }
}
