// Shared helpers of the sync benchmarks (not tests): CSV generation and a Basin project to load it.
import fs from 'node:fs';
import path from 'node:path';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin, { type SyncEngine } from '@basin/plugin-sync';
import { bootApp, disableAuth, makeProject } from '@basin/test';

const CATS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];

/** Writes `rows` CSV rows (~205 bytes each, so 5M rows is about 1 GB) in chunks, deterministic. */
export function writeCsv(file: string, rows: number, startId = 1): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const fd = fs.openSync(file, 'w');
  fs.writeSync(fd, 'id,created_at,customer,category,amount,quantity,active,comment\n');
  const chunk = 50_000;
  const base = Date.UTC(2024, 0, 1);
  for (let i = 0; i < rows; i += chunk) {
    let s = '';
    for (let j = i; j < Math.min(rows, i + chunk); j++) {
      const id = startId + j;
      const ts = new Date(base + id * 61_000).toISOString().replace('T', ' ').slice(0, 19);
      s += `${id},${ts},customer_${(id * 7919) % 100_000},${CATS[id % 8]},${((id * 37) % 100_000) / 100},${id % 17},${id % 3 === 0},"note for row ${id} with some free text, padding the line to a realistic width ${'x'.repeat(60)}"\n`;
    }
    fs.writeSync(fd, s);
  }
  fs.closeSync(fd);
}

/** A fresh project whose `bench` local_files source reads `data/bench/` (local_files wants a directory inside the project). */
export function benchProject(): { dir: string; dataDir: string } {
  const dir = makeProject({
    '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: bench\n    type: local_files\n    local_files:\n      directory: data/bench\n',
  });
  disableAuth(dir);
  // BENCH_LOAD_MEMORY_MB overrides sync.load_memory_limit_mb (default 192) to see its effect on RSS
  if (process.env.BENCH_LOAD_MEMORY_MB) fs.appendFileSync(path.join(dir, '.basin', 'project.yml'), `\nsync:\n  load_memory_limit_mb: ${process.env.BENCH_LOAD_MEMORY_MB}\n`);
  const dataDir = path.join(dir, 'data', 'bench');
  fs.mkdirSync(dataDir, { recursive: true });
  return { dir, dataDir };
}

export async function openProject(dir: string): Promise<{ engine: SyncEngine; close(): Promise<void>; app: Awaited<ReturnType<typeof bootApp>> }> {
  const app = await bootApp(dir, { plugins: [sourcesPlugin, syncPlugin] });
  const engine = app.container.resolve<SyncEngine>('syncEngine');
  return { app, engine, close: () => app.close() };
}

export const mb = (bytes: number) => Math.round(bytes / 1048576);
