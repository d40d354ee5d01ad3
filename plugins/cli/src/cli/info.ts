import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BASIN_VERSION, loadPlugins, loadProjectConfig, runningServer, type CliContext } from '@basin/core';

function size(p: string): number | null {
  try {
    const st = fs.statSync(p);
    if (!st.isDirectory()) return st.size;
    let n = 0;
    for (const e of fs.readdirSync(p, { withFileTypes: true })) n += size(path.join(p, e.name)) ?? 0;
    return n;
  } catch {
    return null;
  }
}

export const human = (n: number | null) => (n === null ? '-' : n < 1024 ? `${n} B` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : n < 1024 ** 3 ? `${(n / 1024 ** 2).toFixed(1)} MiB` : `${(n / 1024 ** 3).toFixed(2)} GiB`);

/** `basin info`: versions, paths and sizes of this install and project; no boot, no warehouse. */
export async function runInfo(cli: CliContext, projectDir: string, o: { json?: boolean }): Promise<void> {
  const plugins = await loadPlugins(projectDir);
  const hasProject = fs.existsSync(path.join(projectDir, '.basin', 'project.yml'));
  const { config, issues } = hasProject ? await loadProjectConfig(projectDir, plugins) : { config: null, issues: [] };
  const server = runningServer(projectDir);
  const warehouse = config ? config.resolve(config.platform.db_path) : null;
  const info = {
    basin_version: BASIN_VERSION,
    node_version: process.version,
    platform: `${os.platform()} ${os.arch()}`,
    plugins: plugins.map((p) => p.name).sort(),
    project: hasProject
      ? {
          dir: projectDir,
          name: config?.project.name ?? null,
          basin_version: config?.project.basin_version ?? null,
          config_valid: !!config,
          config_errors: issues.filter((i) => i.severity === 'error').length,
          sources: config?.hasFile('sources') ? ((config.file<{ sources?: unknown[] }>('sources').sources ?? []).length) : 0,
          port: config?.platform.port ?? null,
          warehouse: warehouse ? { path: warehouse, bytes: size(warehouse) } : null,
          data_bytes: config ? size(config.resolve(config.platform.data_dir)) : null,
          tx_bytes: size(path.join(projectDir, 'tx')),
        }
      : null,
    server: server ? { pid: server.pid, url: server.url, started_at: server.started_at } : null,
  };
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  if (o.json) return out(JSON.stringify(info, null, 2));
  out(`Basin ${info.basin_version} on Node ${info.node_version} (${info.platform})`);
  out(`Plugins: ${info.plugins.join(', ')}`);
  if (!info.project) return out(`No Basin project in ${projectDir} (create one with "basin init").`);
  const pr = info.project;
  out(`Project: ${pr.name ?? '?'} in ${pr.dir}${pr.config_valid ? '' : ` (configuration has ${pr.config_errors} error(s): run "basin config validate")`}`);
  out(`Sources: ${pr.sources}; port ${pr.port ?? '?'}`);
  if (pr.warehouse) out(`Warehouse: ${pr.warehouse.path} (${human(pr.warehouse.bytes)}); data dir ${human(pr.data_bytes)}; tx ${human(pr.tx_bytes)}`);
  out(info.server ? `Server: running at ${info.server.url} (pid ${info.server.pid}, since ${info.server.started_at})` : 'Server: not running');
}
