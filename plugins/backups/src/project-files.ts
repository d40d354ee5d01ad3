import fs from 'node:fs';
import path from 'node:path';

/** the project's configuration and code a backup carries (databases and secrets are added separately) */
const CONFIG_FILES = ['.basin/project.yml', '.basin/sources.yml', '.basin/schedules.yml', '.basin/monitors.yml', '.basin/metrics.yml', '.basin/cloud.yml', '.basin/pii-overrides.yml', '.ingest/config.toml'];
const CONFIG_DIRS = ['custom_sources', 'scripts'];
/** sensitive files, only with --include-secrets */
export const SECRET_FILES = ['.env', '.ingest/secrets.toml', '.basin/bi.yml', '.basin/secret.key'];
/** build output and caches inside the dbt project */
const SKIP_DIRS = new Set(['target', 'logs', 'dbt_packages', 'node_modules', '__pycache__', '.venv', '.venv-tx']);

function walk(root: string, rel: string, out: string[]): void {
  const abs = path.join(root, rel);
  if (!fs.existsSync(abs)) return;
  for (const e of fs.readdirSync(abs, { withFileTypes: true })) {
    const r = path.posix.join(rel, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.venv')) walk(root, r, out);
    } else if (e.isFile()) out.push(r);
  }
}

/** project-relative paths of the config files and directories that exist */
export function configFiles(projectDir: string, txDir: string): string[] {
  const out = CONFIG_FILES.filter((f) => fs.existsSync(path.join(projectDir, f)));
  const tx = path.relative(projectDir, path.resolve(projectDir, txDir)).split(path.sep).join('/');
  for (const d of [...CONFIG_DIRS, ...(tx && !tx.startsWith('..') ? [tx] : [])]) walk(projectDir, d, out);
  return out;
}
