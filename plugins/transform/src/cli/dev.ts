// `basin tx dev`: dbt against a private copy of the warehouse. The copy is taken from the serving copy
// while a server runs (a consistent snapshot; the live file is the server's), else from the warehouse
// file; dbt's BASIN_DB_PATH points at the copy and its target/logs go to separate folders, so nothing
// production reads is touched.
import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { CliExit, colourEnabled, diesWithParent, EXIT, loadProjectConfig, runningServer, type CliContext } from '@basin/core';
import { dbtExecutable, locateVenv, venvReady } from '../venv.js';

/** same file name as production in its own folder: DuckDB names the catalog after the file, and views keep catalog-qualified names */
export const devWarehouse = (prod: string, dataDir: string) => path.join(dataDir, 'dev', path.basename(prod));

export async function runDev(cli: CliContext, projectDir: string, args: string[], o: { fresh?: boolean }): Promise<void> {
  const out = (s: string) => void cli.stdout.write(`${s}\n`);
  const { config } = await loadProjectConfig(projectDir);
  if (!config) throw new CliExit(EXIT.config, 'basin tx dev: the project configuration is invalid; run "basin config validate".');
  const { dir: venv } = locateVenv(projectDir);
  if (!venvReady(venv)) throw new CliExit(EXIT.failure, `basin tx dev: dbt is not installed (${venv}); run "basin tx setup".`);
  const prod = config.resolve(config.platform.db_path);
  const serving = config.resolve(config.platform.data_dir, 'serving.db');
  const copy = devWarehouse(prod, config.resolve(config.platform.data_dir));
  if (path.resolve(copy) === path.resolve(prod)) throw new CliExit(EXIT.config, 'basin tx dev: the dev copy would be the production warehouse; refusing.');
  if (o.fresh || !fs.existsSync(copy)) {
    const from = runningServer(projectDir) ? serving : prod;
    if (!fs.existsSync(from)) throw new CliExit(EXIT.failure, `basin tx dev: nothing to copy yet (${path.relative(projectDir, from)} does not exist); run "basin sync" first.`);
    fs.mkdirSync(path.dirname(copy), { recursive: true });
    fs.rmSync(`${copy}.wal`, { force: true });
    fs.copyFileSync(from, `${copy}.tmp`);
    if (!runningServer(projectDir) && fs.existsSync(`${prod}.wal`)) fs.copyFileSync(`${prod}.wal`, `${copy}.wal`);
    fs.renameSync(`${copy}.tmp`, copy);
    out(`Copied the warehouse from ${path.relative(projectDir, from)} to ${path.relative(projectDir, copy)}.`);
  }
  const txDir = config.resolve(config.platform.tx_project_dir);
  const dbtArgs = args.length ? args : ['build'];
  out(`dbt ${dbtArgs.join(' ')} on the dev copy ${path.relative(projectDir, copy)} (production is not touched)`);
  const code = await new Promise<number>((resolve) => {
    const run = diesWithParent(dbtExecutable(venv), [...dbtArgs, '--project-dir', txDir, '--profiles-dir', txDir, '--target-path', 'target-dev', '--log-path', 'logs-dev', ...(colourEnabled(cli.stdout) ? [] : ['--no-use-colors'])]);
    const child = spawn(run.command, run.args, {
      cwd: txDir,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, BASIN_DB_PATH: copy, DBT_SEND_ANONYMOUS_USAGE_STATS: 'false', DBT_NO_VERSION_CHECK: '1' },
    });
    child.stdout.on('data', (c) => cli.stdout.write(c));
    child.stderr.on('data', (c) => cli.stderr.write(c));
    child.on('error', (e) => {
      cli.stderr.write(`basin tx dev: ${e.message}\n`);
      resolve(1);
    });
    child.on('close', (c) => resolve(c ?? 1));
  });
  if (code !== 0) throw new CliExit(EXIT.failure, `basin tx dev: dbt exited with ${code}.`);
}
