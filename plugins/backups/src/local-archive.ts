// `basin backup` / `basin restore`: a local .tar.gz of the project (config, secrets, dbt project,
// uploads, warehouse, state and auth databases). The warehouse is taken consistently: from the
// server's published serving copy while a server holds it, else the file itself; SQLite databases
// through SQLite's online backup. Object-storage backups are the same commands without --out (cli.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CliExit, EXIT, loadProjectConfig, openSqlite, runningServer, type CliContext } from '@basin/core';

const human = (n: number): string => (n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : n < 1024 ** 3 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${(n / 1024 ** 3).toFixed(2)} GiB`);

/** never in a backup: regenerated, machine-specific or live files */
const EXCLUDE = [/^\.git(\/|$)/, /^node_modules(\/|$)/, /^\.venv-tx(\/|$)/, /^tx\/(target|logs|dbt_packages)(\/|$)/, /^\.basin\/(server\.json|logs(\/|$))/, /\.tmp$/, /\.db-(wal|shm)$/, /^\.basin-restore-/];

function walk(root: string, rel = ''): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (EXCLUDE.some((x) => x.test(r))) continue;
    if (e.isDirectory()) out.push(...walk(root, r));
    else if (e.isFile()) out.push(r);
  }
  return out;
}

export async function runBackup(cli: CliContext, projectDir: string, o: { out?: string; json?: boolean }): Promise<void> {
  const { config } = await loadProjectConfig(projectDir);
  if (!config) throw new CliExit(EXIT.config, 'basin backup: the project configuration is invalid; run "basin config validate".');
  const server = runningServer(projectDir);
  const warehouse = path.relative(projectDir, config.resolve(config.platform.db_path)).split(path.sep).join('/');
  const serving = config.resolve(config.platform.data_dir, 'serving.db');
  const servingRel = path.relative(projectDir, serving).split(path.sep).join('/');
  const sqlite = new Set(['.basin/state.db', '.basin/auth.db']);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const target = path.resolve(o.out ?? path.join(projectDir, '..', `${path.basename(projectDir)}-backup-${stamp}.tar.gz`));
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-backup-'));
  const tty = !!(cli.stdout as NodeJS.WriteStream).isTTY && !o.json;
  try {
    const files = walk(projectDir).filter((f) => f !== servingRel && f !== `${servingRel}.wal`);
    if (server && !files.includes(warehouse)) files.push(warehouse);
    const cliProgress = tty ? (await import('cli-progress')).default : null;
    const bar = cliProgress ? new cliProgress.SingleBar({ format: ' backup |{bar}| {value}/{total} files {file}', stream: cli.stdout as NodeJS.WriteStream, hideCursor: true }, cliProgress.Presets.shades_classic) : null;
    bar?.start(files.length, 0, { file: '' });
    let warehouseFrom = warehouse;
    for (const [i, f] of files.entries()) {
      const dest = path.join(stage, f);
      fs.mkdirSync(path.dirname(dest), { recursive: true });
      if (f === warehouse && server) {
        // the server holds the file open and writes to it: its published serving copy is a consistent snapshot
        if (!fs.existsSync(serving)) throw new CliExit(EXIT.failure, `basin backup: a server is running and has not published a serving copy yet (${servingRel}); run a sync, or stop the server ("basin stop") and retry.`);
        fs.copyFileSync(serving, dest);
        warehouseFrom = servingRel;
      } else if (sqlite.has(f)) {
        const db = openSqlite(path.join(projectDir, f));
        try {
          await db.backup(dest);
        } finally {
          db.close();
        }
      } else fs.copyFileSync(path.join(projectDir, f), dest);
      bar?.update(i + 1, { file: f });
    }
    bar?.stop();
    fs.mkdirSync(path.dirname(target), { recursive: true });
    const tmp = `${target}.${process.pid}.tmp`;
    const tar = spawnSync('tar', ['-czf', tmp, '-C', stage, '.'], { encoding: 'utf8' });
    if (tar.status !== 0) throw new CliExit(EXIT.failure, `basin backup: tar failed: ${tar.stderr || tar.error?.message}`);
    fs.chmodSync(tmp, 0o600);
    fs.renameSync(tmp, target);
    const bytes = fs.statSync(target).size;
    const result = { file: target, bytes, files: files.length, warehouse_from: warehouseFrom, server_running: !!server };
    if (o.json) cli.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else {
      cli.stdout.write(`Backed up ${files.length} files to ${target} (${human(bytes)}); the warehouse from ${warehouseFrom}.\n`);
      cli.stdout.write('It holds the project secrets (.env, .ingest/secrets.toml): keep it private. Restore with "basin restore <file>".\n');
    }
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

export async function runRestore(cli: CliContext, projectDir: string, archive: string, o: { yes?: boolean; json?: boolean }): Promise<void> {
  const file = path.resolve(archive);
  if (!fs.existsSync(file)) throw new CliExit(EXIT.config, `basin restore: ${file} does not exist.`);
  const server = runningServer(projectDir);
  if (server) throw new CliExit(EXIT.failure, `basin restore: a Basin server runs for this project (pid ${server.pid}); stop it first with "basin stop".`);
  const exists = fs.existsSync(path.join(projectDir, '.basin', 'project.yml'));
  if (exists && !o.yes) throw new CliExit(EXIT.config, `basin restore: ${projectDir} holds a project; pass --yes to replace it (the current one is kept beside it).`);
  const parent = path.dirname(projectDir);
  fs.mkdirSync(parent, { recursive: true });
  // extracted next to the project (same filesystem), checked, then swapped in by rename
  const stage = fs.mkdtempSync(path.join(parent, `.basin-restore-${path.basename(projectDir)}-`));
  try {
    const list = spawnSync('tar', ['-tzf', file], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (list.status !== 0) throw new CliExit(EXIT.failure, `basin restore: ${file} is not a readable .tar.gz (${list.stderr.trim()}).`);
    // never write outside the project: no absolute paths or .. in the archive
    const bad = list.stdout.split('\n').filter((n) => n && (n.startsWith('/') || n.split('/').includes('..')));
    if (bad.length) throw new CliExit(EXIT.failure, `basin restore: the archive has unsafe paths (${bad.slice(0, 3).join(', ')}); refusing it.`);
    const x = spawnSync('tar', ['-xzf', file, '-C', stage, '--no-same-owner'], { encoding: 'utf8' });
    if (x.status !== 0) throw new CliExit(EXIT.failure, `basin restore: extracting failed: ${x.stderr.trim()}`);
    if (!fs.existsSync(path.join(stage, '.basin', 'project.yml'))) throw new CliExit(EXIT.failure, `basin restore: ${file} is not a Basin backup (no .basin/project.yml).`);
    let kept: string | null = null;
    if (fs.existsSync(projectDir)) {
      kept = `${projectDir}.before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(projectDir, kept);
      // a project-local dbt venv is machine-specific and not in backups: carry it over
      if (fs.existsSync(path.join(kept, '.venv-tx'))) fs.renameSync(path.join(kept, '.venv-tx'), path.join(stage, '.venv-tx'));
    }
    fs.renameSync(stage, projectDir);
    const result = { restored: projectDir, from: file, previous: kept };
    if (o.json) cli.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    else cli.stdout.write(`Restored ${projectDir} from ${file}.${kept ? ` The previous project is kept in ${kept}.` : ''}\n`);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}
