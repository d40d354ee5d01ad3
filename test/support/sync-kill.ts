// SIGKILL in the middle of a sync, for the crash tests of sources against real servers: a child
// process (sync-kill-child.ts) syncs the source until it has yielded `holdAfterStates` state
// checkpoints, then is killed with SIGKILL while the sync is still open (nothing committed).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Runs the sync in a child and kills it mid-sync; resolves with the rows it had staged by then. */
export async function killMidSync(dir: string, source: string, type: string, holdAfterStates: number): Promise<{ staged: number; states: number }> {
  const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'sync-kill-child.ts'), dir, source, type, String(holdAfterStates)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // 50k-row batches, so a batch is loaded into staging before the hold point without a row group's worth of data
    env: { ...process.env, BASIN_SYNC_BATCH_ROWS: '50000' },
  });
  let err = '';
  let out = '';
  child.stderr.on('data', (d) => (err += d));
  const held = await new Promise<{ staged: number; states: number }>((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /HOLDING states=(\d+) staged=(\d+)/.exec(out);
      if (m) resolve({ states: Number(m[1]), staged: Number(m[2]) });
    });
    child.on('exit', (code) => reject(new Error(`the sync child exited (${code}) before the point to kill it: ${err.slice(-2000)}`)));
  });
  child.kill('SIGKILL');
  if (child.exitCode === null && child.signalCode === null) await new Promise((r) => child.once('exit', r));
  return held;
}
