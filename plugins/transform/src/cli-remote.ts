import { callServer, CliExit, EXIT, type ServerAnswer, type ServerInfo } from '@basin/core';
import type { TxCommand, TxRunRecord } from './types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * `basin tx run|test|build` while a server holds the warehouse: the server is the single writer, so the
 * CLI asks it to run dbt and streams the run's output until it ends (Ctrl-C cancels the run).
 */
export async function runThroughServer(
  server: ServerInfo,
  opts: { command: TxCommand; select?: string; fullRefresh: boolean },
  out: (s: string) => void,
): Promise<TxRunRecord> {
  const call = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    let r: ServerAnswer;
    try {
      r = await callServer(server, method, p, body);
    } catch (e) {
      throw new CliExit(EXIT.failure, (e as Error).message);
    }
    if (r.status === 401 || r.status === 403) {
      throw new CliExit(EXIT.failure, `The running Basin server refused the request (${r.status}); set BASIN_API_KEY to an API key with the tx.run permission (create one with "basin keys create").`);
    }
    if (!r.ok) throw new CliExit(EXIT.failure, `basin tx ${opts.command}: ${r.body?.error?.message ?? `HTTP ${r.status}`}`);
    return r.body as T;
  };
  out(`A Basin server is running for this project (pid ${server.pid}, ${server.url}); dbt runs there.`);
  const started = await call<TxRunRecord>('POST', '/api/tx/runs', { command: opts.command, ...(opts.select ? { select: opts.select } : {}), full_refresh: opts.fullRefresh });
  if (started.status === 'queued') out(`Run ${started.id} is queued behind another dbt run on the server.`);

  let cancelled = false;
  const onInterrupt = () => {
    if (cancelled) process.exit(130);
    cancelled = true;
    out(`Cancelling run ${started.id} on the server (Ctrl-C again to leave it running and exit)...`);
    void call('POST', `/api/tx/runs/${started.id}/cancel`).catch(() => undefined);
  };
  process.on('SIGINT', onInterrupt);
  try {
    let after = 0;
    for (;;) {
      const o = await call<{ lines: string[]; next: number; finished: boolean }>('GET', `/api/tx/runs/${started.id}/output?after=${after}`);
      for (const l of o.lines) out(l);
      after = o.next;
      if (o.finished) break;
      await sleep(300);
    }
  } finally {
    process.off('SIGINT', onInterrupt);
  }
  return call<TxRunRecord>('GET', `/api/tx/runs/${started.id}`);
}
