import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * What of the project goes to the server: its files, but never what the server keeps for itself
 * (the warehouse, state and users, the serving copy, temp files) nor the deploy key. A redeploy
 * unpacks over the remote project, so those stay as the server has them.
 */
export function projectExcludes(dbPath: string, dataDir: string): string[] {
  const db = path.posix.normalize(dbPath.replace(/^\.\//, ''));
  const data = path.posix.normalize(dataDir.replace(/^\.\//, ''));
  return [db, `${db}.wal`, `${data}/serving.db`, `${data}/serving.db.*`, '.basin/state.db*', '.basin/auth.db*', '.basin/server.json', '.basin/tmp', '.basin/cloud_key*', '.basin/known_hosts', '.basin/deployments.jsonl', '.basin/deployed', '.venv*', 'tx/target', 'tx/logs', 'tx/dbt_packages', '.git', 'node_modules'];
}

/** files that are gitignored on purpose and still needed on the server (sent separately, mode 0600) */
export const SENSITIVE_FILES = ['.env', '.ingest/secrets.toml', '.basin/bi.yml', '.basin/secret.key'];

export function isGitRepo(dir: string): boolean {
  return spawnSync('git', ['-C', dir, 'rev-parse', '--is-inside-work-tree'], { encoding: 'utf8' }).stdout.trim() === 'true';
}

/** the commit a branch points at, or null */
export function gitCommit(dir: string, branch: string): string | null {
  const r = spawnSync('git', ['-C', dir, 'rev-parse', '--verify', '--quiet', `${branch}^{commit}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** a tar stream of the project: the deploy branch's tree in a git project, else the directory minus the excludes */
export function projectTar(dir: string, opts: { git: boolean; branch: string; excludes: string[] }): Readable {
  if (opts.git) {
    const top = spawnSync('git', ['-C', dir, 'rev-parse', '--show-toplevel'], { encoding: 'utf8' }).stdout.trim();
    const rel = path.relative(top, dir).split(path.sep).join('/');
    const child = spawn('git', ['-C', top, 'archive', '--format=tar', rel ? `${opts.branch}:${rel}` : opts.branch], { stdio: ['ignore', 'pipe', 'inherit'] });
    return child.stdout;
  }
  const child = spawn('tar', ['-C', dir, ...opts.excludes.flatMap((e) => ['--exclude', `./${e}`]), '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return child.stdout;
}

/** a tar stream of the Basin install this command runs from (the same release goes to the server) */
export function releaseTar(installRoot: string): Readable {
  const excludes = ['node_modules', '.git', '.cache', '.turbo', 'bench/.work', '*/node_modules', '*/*/node_modules'];
  const child = spawn('tar', ['-C', installRoot, ...excludes.flatMap((e) => ['--exclude', `./${e}`]), '-cf', '-', '.'], { stdio: ['ignore', 'pipe', 'inherit'] });
  return child.stdout;
}

export const existingSensitive = (dir: string) => SENSITIVE_FILES.filter((f) => fs.existsSync(path.join(dir, f)));
