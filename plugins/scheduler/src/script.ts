import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { diesWithParent, resolveInside } from '@basin/core';
import { scriptRelative } from './config.js';

/** The interpreter for `script` schedules: the project's dbt venv python when present, else python3 on PATH. */
export function projectPython(projectDir: string): string {
  for (const rel of ['.venv-tx/bin/python', '.venv-tx/bin/python3']) {
    const p = path.join(projectDir, rel);
    if (fs.existsSync(p)) return p;
  }
  return 'python3';
}

/** Resolves a schedule's script_path inside `<project>/scripts`, refusing anything that escapes it (also via symlinks). */
export function resolveScript(projectDir: string, scriptPath: string): string {
  const rel = scriptRelative(scriptPath);
  const root = path.join(projectDir, 'scripts');
  if (!rel) throw new Error(`script_path "${scriptPath}" must stay inside scripts/`);
  if (!fs.existsSync(root)) throw new Error('the project has no scripts/ directory');
  const abs = resolveInside(root, rel);
  if (!abs) throw new Error(`script_path "${scriptPath}" must stay inside scripts/`);
  if (!fs.existsSync(abs) || !fs.statSync(abs).isFile()) throw new Error(`script scripts/${rel} does not exist`);
  return abs;
}

const KILL_GRACE_MS = 5000;

/**
 * Runs a Python script with the project as working directory; stdout and stderr go to `log`.
 * Aborting the signal sends SIGTERM, then SIGKILL if the script has not exited after a grace period.
 */
export function runScript(opts: { python: string; script: string; cwd: string; signal: AbortSignal; log: (chunk: string) => void; env?: NodeJS.ProcessEnv }): Promise<{ exitCode: number | null; signal: NodeJS.Signals | null }> {
  return new Promise((resolve, reject) => {
    // a script run by Basin stops with it (a SIGKILL included) instead of running on unsupervised
    const run = diesWithParent(opts.python, [opts.script], opts.python);
    const child = spawn(run.command, run.args, { cwd: opts.cwd, env: { ...process.env, ...opts.env, PYTHONUNBUFFERED: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    if (opts.signal.aborted) onAbort();
    else opts.signal.addEventListener('abort', onAbort, { once: true });
    child.stdout.setEncoding('utf8').on('data', opts.log);
    child.stderr.setEncoding('utf8').on('data', opts.log);
    child.on('error', (e) => {
      opts.signal.removeEventListener('abort', onAbort);
      reject(new Error(`could not start ${opts.python}: ${e.message}`));
    });
    child.on('close', (exitCode, sig) => {
      opts.signal.removeEventListener('abort', onAbort);
      if (killTimer) clearTimeout(killTimer);
      resolve({ exitCode, signal: sig });
    });
  });
}
