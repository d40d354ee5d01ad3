import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { diesWithParent } from '@basin/core';
import { parseDbtLogLine, type DbtLogLine } from './dbt-log.js';

export interface DbtInvocation {
  dbt: string;
  /** the dbt project directory (tx/); also the profiles directory */
  projectDir: string;
  /** e.g. ['run', '--select', 'x+'] */
  args: string[];
  /** absolute warehouse path, given to profiles.yml as BASIN_DB_PATH */
  dbPath: string;
  /** a server warehouse: the profiles.yml Basin wrote from its dbt target, and the env it names */
  target?: { profilesDir: string; env: Record<string, string> };
  timeoutMs: number;
  signal?: AbortSignal;
  onLine?: (line: DbtLogLine) => void;
}

export interface DbtExit {
  code: number | null;
  /** why Basin stopped dbt, if it did */
  stopped: 'timeout' | 'cancelled' | null;
  /** the last non-JSON output (tracebacks), for error messages */
  stderrTail: string;
}

/**
 * Runs one dbt command with JSON logs on stdout, parsing each line as it arrives. dbt runs in its own
 * process group so a timeout or cancel kills it and anything it started (SIGTERM, then SIGKILL).
 */
export function runDbt(inv: DbtInvocation): Promise<DbtExit> {
  return new Promise((resolve) => {
    const args = [...inv.args, '--project-dir', inv.projectDir, '--profiles-dir', inv.target?.profilesDir ?? inv.projectDir, '--log-format', 'json', '--log-level', 'debug', '--no-use-colors'];
    // stops with Basin, a SIGKILL included: an orphaned dbt kept writing to the warehouse file
    const run = diesWithParent(inv.dbt, args);
    const child = spawn(run.command, run.args, {
      cwd: inv.projectDir,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...inv.target?.env,
        BASIN_DB_PATH: inv.dbPath,
        // dbt's anonymous usage tracking would try to reach the internet on every run
        DBT_SEND_ANONYMOUS_USAGE_STATS: 'false',
        DBT_NO_VERSION_CHECK: '1',
        PYTHONUNBUFFERED: '1',
      },
    });
    let stopped: DbtExit['stopped'] = null;
    let tail = '';
    const keepTail = (s: string) => {
      tail = (tail + s).slice(-4000);
    };
    const kill = (why: 'timeout' | 'cancelled') => {
      if (stopped || child.exitCode !== null) return;
      stopped = why;
      const group = (sig: NodeJS.Signals) => {
        try {
          process.kill(-child.pid!, sig);
        } catch {
          /* already gone */
        }
      };
      group('SIGTERM');
      setTimeout(() => group('SIGKILL'), 5000).unref();
    };
    const timer = setTimeout(() => kill('timeout'), inv.timeoutMs);
    const onAbort = () => kill('cancelled');
    if (inv.signal?.aborted) onAbort();
    inv.signal?.addEventListener('abort', onAbort, { once: true });

    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      const parsed = parseDbtLogLine(line);
      if (parsed) inv.onLine?.(parsed);
      else if (line.trim()) keepTail(line + '\n');
    });
    child.stderr.on('data', (b: Buffer) => keepTail(b.toString()));
    const done = (code: number | null) => {
      clearTimeout(timer);
      inv.signal?.removeEventListener('abort', onAbort);
      resolve({ code, stopped, stderrTail: tail.trim() });
    };
    child.on('error', (e) => {
      keepTail(String(e));
      done(null);
    });
    child.on('close', (code) => done(code));
  });
}
