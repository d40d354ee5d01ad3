// The test runner's side of test/support/shared-server.ts: a run folder for the servers test files
// share, and stopping every server recorded there when the run ends (newest first, so Trino stops
// before the PostgreSQL that holds its catalog). Records: <run dir>/<name>.json with
// { name, startedAt, info, processes: [{ pid, group, signal? }], dirs: [...] }.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const makeRunDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'basin-test-run-'));

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

const signal = (p, sig) => {
  try {
    process.kill(p.group ? -p.pid : p.pid, sig);
  } catch {
    // gone
  }
};

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Stops every recorded server (signal, SIGKILL after 20 s), removes their folders and the run folder. */
export async function stopSharedServers(dir) {
  if (!dir || !fs.existsSync(dir)) return [];
  const records = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => {
      try {
        return JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
      } catch {
        return null;
      }
    })
    .filter(Boolean)
    .sort((a, b) => b.startedAt - a.startedAt);
  for (const r of records) {
    for (const p of r.processes) signal(p, p.signal ?? 'SIGTERM');
    const deadline = Date.now() + 20_000;
    while (r.processes.some((p) => alive(p.pid)) && Date.now() < deadline) await sleep(100);
    for (const p of r.processes) if (alive(p.pid)) signal(p, 'SIGKILL');
    for (const d of r.dirs) fs.rmSync(d, { recursive: true, force: true });
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return records.map((r) => r.name);
}
