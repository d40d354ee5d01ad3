import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { CliExit, EXIT, painter, renderTable, runningServer, terminalWidth, withProjectApi, writeFileAtomic, type CliContext } from '@basin/core';
import type { ScheduleView } from '../scheduler.js';
import type { JobRecord } from '../store.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const enc = encodeURIComponent;
const DONE = new Set(['succeeded', 'failed', 'cancelled', 'timed_out', 'skipped']);

function jobTable(cli: CliContext, jobs: JobRecord[]): string {
  const p = painter(cli.stdout);
  return renderTable(jobs, ['id', 'schedule', { key: 'status', paint: p.status }, 'trigger', { key: 'started_at', title: 'STARTED' }, { key: 'duration_seconds', title: 'SECONDS' }, 'error'], terminalWidth(cli.stdout));
}

export async function list(cli: CliContext, projectDir: string, o: { json?: boolean }): Promise<void> {
  const items = await withProjectApi(cli, projectDir, { command: 'basin schedule list' }, (api) => api.request<ScheduleView[]>('GET', '/api/schedules'));
  if (o.json) return void cli.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
  if (!items.length) return void cli.stdout.write('No schedules (add them to .basin/schedules.yml).\n');
  const p = painter(cli.stdout);
  const rows = items.map((s) => ({ ...s, enabled: s.enabled ? 'enabled' : 'disabled', last: s.last_run ? `${s.last_run.status} ${s.last_run.finished_at ?? s.last_run.started_at ?? ''}` : '' }));
  cli.stdout.write(`${renderTable(rows, ['name', 'type', { key: 'cron_expression', title: 'CRON' }, { key: 'enabled', paint: p.status }, { key: 'next_run', title: 'NEXT RUN' }, { key: 'last', title: 'LAST RUN' }], terminalWidth(cli.stdout))}\n`);
}

export async function run(cli: CliContext, projectDir: string, name: string, o: { wait: boolean; json?: boolean }): Promise<void> {
  const job = await withProjectApi(cli, projectDir, { command: 'basin schedule run' }, async (api) => {
    const started = await api.request<{ job_id?: string; id?: string; job?: JobRecord }>('POST', `/api/schedules/${enc(name)}/trigger`);
    const id = started.job_id ?? started.job?.id ?? started.id;
    if (!id) throw new CliExit(EXIT.failure, 'basin schedule run: the server did not return a job id.');
    // without a server the job runs in this process: it must be waited for before the project closes
    if (!o.wait && api.mode === 'server') return api.request<JobRecord>('GET', `/api/schedules/jobs/${enc(id)}`);
    if (!o.json) cli.stdout.write(`Job ${id} of "${name}" queued${api.mode === 'local' ? ' (running here: no server)' : ''}; waiting...\n`);
    for (;;) {
      const j = await api.request<JobRecord>('GET', `/api/schedules/jobs/${enc(id)}`);
      if (DONE.has(j.status)) return j;
      await sleep(500);
    }
  });
  if (o.json) cli.stdout.write(`${JSON.stringify(job, null, 2)}\n`);
  else cli.stdout.write(`Job ${job.id}: ${painter(cli.stdout).status(job.status)}${job.error ? ` (${job.error})` : ''}\n`);
  if (job.status === 'failed' || job.status === 'timed_out') throw new CliExit(EXIT.failure);
}

export async function history(cli: CliContext, projectDir: string, name: string | undefined, o: { limit: string; json?: boolean }): Promise<void> {
  const url = name ? `/api/schedules/${enc(name)}/history?limit=${Number(o.limit) || 20}` : `/api/schedules/history/recent?limit=${Number(o.limit) || 20}`;
  const page = await withProjectApi(cli, projectDir, { command: 'basin schedule history' }, (api) => api.request<{ items: JobRecord[]; total: number }>('GET', url));
  if (o.json) return void cli.stdout.write(`${JSON.stringify(page, null, 2)}\n`);
  cli.stdout.write(page.items.length ? `${jobTable(cli, page.items)}\n${page.items.length} of ${page.total} job(s).\n` : 'No jobs yet.\n');
}

export async function cancel(cli: CliContext, projectDir: string, id: string, o: { json?: boolean }): Promise<void> {
  const r = await withProjectApi(cli, projectDir, { command: 'basin schedule cancel', local: false }, (api) => api.request('POST', `/api/schedules/jobs/${enc(id)}/cancel`));
  cli.stdout.write(o.json ? `${JSON.stringify(r, null, 2)}\n` : `Cancelled job ${id}.\n`);
}

/** sets `enabled` on one schedule in schedules.yml, keeping comments and layout, then reloads the server */
export async function setEnabled(cli: CliContext, projectDir: string, name: string, on: boolean): Promise<void> {
  const file = path.join(projectDir, '.basin', 'schedules.yml');
  if (!fs.existsSync(file)) throw new CliExit(EXIT.config, `basin schedule: ${file} does not exist.`);
  const doc = parseDocument(fs.readFileSync(file, 'utf8'));
  const list = doc.get('schedules') as { items?: Array<{ get(k: string): unknown; set(k: string, v: unknown): void }> } | undefined;
  const item = list?.items?.find((s) => s.get('name') === name);
  if (!item) throw new CliExit(EXIT.failure, `basin schedule: no schedule named "${name}" in ${file}.`);
  item.set('enabled', on);
  writeFileAtomic(file, doc.toString());
  const server = runningServer(projectDir);
  if (server) await withProjectApi(cli, projectDir, { command: `basin schedule ${on ? 'enable' : 'disable'}` }, (api) => api.request('POST', '/api/schedules/reload'));
  cli.stdout.write(`Schedule "${name}" ${on ? 'enabled' : 'disabled'}${server ? ' (the server reloaded its schedules)' : ''}.\n`);
}
