import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(import.meta.url);

let warming: Promise<void> | null = null;

/**
 * Loads ICU's locale and time zone data on a short-lived thread, once per process, while this one goes
 * on (importing the plugins). A process's first date or number format costs 20-35 ms, and booting a
 * project makes one (a schedule's timezone and cron expression are validated through Intl); ICU's data
 * is shared by every thread of the process, so afterwards that first format costs ~1 ms here. Skipped
 * with one CPU, where the thread would only take turns with this one. Best effort: the promise
 * settles when the thread ends and never rejects; the thread never keeps the process alive (so a
 * process with nothing else to do exits without waiting for it).
 */
export function warmIcu(): Promise<void> {
  if (warming) return warming;
  if (os.availableParallelism() < 2) return (warming = Promise.resolve());
  warming = new Promise<void>((resolve) => {
    try {
      // required here: node:worker_threads is not loaded by the commands that boot nothing
      const { Worker } = require('node:worker_threads') as typeof import('node:worker_threads');
      // no execArgv: a test runner's loader (tsx) need not start in it
      const thread = new Worker('new Intl.DateTimeFormat().resolvedOptions(); new Intl.NumberFormat().resolvedOptions()', { eval: true, execArgv: [], stdout: true, stderr: true });
      thread.unref();
      thread.once('error', () => resolve());
      thread.once('exit', () => resolve());
    } catch {
      resolve();
    }
  });
  return warming;
}
