import { painter, withProjectApi, type CliContext } from '@basin/core';

interface LogLine {
  id: number;
  sync_id: string | null;
  source: string;
  at: string;
  level: string;
  message: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `basin logs`: sync log lines, oldest first; --follow polls the server for new ones until interrupted. */
export async function runLogs(cli: CliContext, projectDir: string, o: { source?: string; limit: string; follow?: boolean; json?: boolean; interval: string; maxPolls?: number }): Promise<void> {
  const p = painter(cli.stdout);
  const show = (l: LogLine) =>
    cli.stdout.write(o.json ? `${JSON.stringify(l)}\n` : `${p.dim(l.at)} ${l.level === 'error' ? p.red(l.level.padEnd(5)) : l.level === 'warn' ? p.yellow(l.level.padEnd(5)) : l.level.padEnd(5)} ${p.bold(l.source)} ${l.message}\n`);
  const base = o.source ? `/api/sources/${encodeURIComponent(o.source)}/logs` : '/api/logs';
  // following needs a server that keeps writing; without one the project is read once
  await withProjectApi(cli, projectDir, { command: 'basin logs', local: true }, async (api) => {
    const first = await api.request<{ items: LogLine[]; total: number }>('GET', `${base}?limit=${Number(o.limit) || 100}`);
    const lines = [...first.items].reverse();
    if (o.json && !o.follow) {
      cli.stdout.write(`${JSON.stringify(first, null, 2)}\n`);
      return;
    }
    for (const l of lines) show(l);
    if (!o.follow) return;
    if (api.mode === 'local') {
      cli.stderr.write('basin logs --follow: no server is running, so no new lines will come; showed the stored ones.\n');
      return;
    }
    let last = lines.length ? lines[lines.length - 1]!.id : 0;
    for (let n = 0; o.maxPolls === undefined || n < o.maxPolls; n++) {
      await sleep(Number(o.interval) * 1000);
      const page = await api.request<{ items: LogLine[] }>('GET', `${base}?limit=1000`);
      const fresh = page.items.filter((l) => l.id > last).reverse();
      for (const l of fresh) show(l);
      if (fresh.length) last = fresh[fresh.length - 1]!.id;
    }
  });
}
