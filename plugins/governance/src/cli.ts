import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { CliExit, createServiceRef, EXIT, PROJECT_FILE, type CliContext } from '@basin/core';
import type { Governance } from './service.js';

/** the registration of the contract's governanceRef, seen as the implementation */
const governanceInternalRef = createServiceRef<Governance>({ id: 'governance' });

/**
 * `basin drift report|accept`. The warehouse file has one writer: when a Basin server answers on the
 * project's port the command goes through its API (with BASIN_API_KEY as bearer when auth is on);
 * otherwise it boots the project itself.
 */
export function registerDriftCommands(cli: CliContext): void {
  const out = (s: string) => cli.stdout.write(`${s}\n`);
  const drift = cli.program.command('drift').description('Schema drift: report and accept');

  drift
    .command('report')
    .option('--project <dir>', 'project directory', process.cwd())
    .option('--source <name>', 'only this source')
    .option('--json', 'print JSON')
    .description('List schema drift events and sources paused by breaking drift')
    .action(async (o: { project: string; source?: string; json?: boolean }) => {
      const projectDir = path.resolve(o.project);
      const qs = o.source ? `?source=${encodeURIComponent(o.source)}&limit=1000` : '?limit=1000';
      const data = await viaServerOrBoot(cli, projectDir, { method: 'GET', path: `/api/governance/schema-drift${qs}` }, async (gov) => ({
        ...gov.driftEvents({ source: o.source, limit: 1000, offset: 0 }),
        attention_sources: [...(await gov.attentionSources())].sort(),
      }));
      const d = data as { items: Array<Record<string, any>>; total: number; attention_sources: string[] };
      if (o.json) {
        out(JSON.stringify(d, null, 2));
        return;
      }
      out(d.attention_sources.length ? `Sources paused by breaking drift: ${d.attention_sources.join(', ')}` : 'No source is paused by schema drift.');
      if (!d.items.length) {
        out('No schema drift recorded.');
        return;
      }
      for (const e of d.items) {
        const types = e.change_type === 'type_changed' ? ` (${e.old_type} -> ${e.new_type})` : e.change_type === 'column_added' ? ` (${e.new_type})` : ` (was ${e.old_type})`;
        out(`${e.detected_at}  ${e.source}.${e.table}  ${e.change_type} ${e.column}${types}  [${e.status}]`);
      }
    });

  drift
    .command('accept')
    .argument('<source>', 'source whose current schema becomes the baseline')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Accept the current schema of a source as its baseline and clear its attention flag')
    .action(async (source: string, o: { project: string }) => {
      const projectDir = path.resolve(o.project);
      const r = (await viaServerOrBoot(cli, projectDir, { method: 'POST', path: `/api/governance/drift/${encodeURIComponent(source)}/accept` }, (gov) => gov.accept(source))) as {
        cleared: boolean;
        accepted_changes: number;
        tables: unknown[];
      };
      out(`Accepted the current schema of "${source}" (${r.tables.length} table(s), ${r.accepted_changes} pending change(s)); ${r.cleared ? 'attention flag cleared' : 'no attention flag was set'}.`);
    });
}

function projectPort(projectDir: string): number {
  try {
    const raw = parseYaml(fs.readFileSync(path.join(projectDir, PROJECT_FILE), 'utf8'));
    const p = Number(raw?.platform?.port);
    return Number.isInteger(p) && p > 0 ? p : 8800;
  } catch {
    return 8800;
  }
}

/** `.basin/server.json` (written by a listening server; see the sync plugin) names its URL and pid */
function serverFromFile(projectDir: string): string | null {
  try {
    const info = JSON.parse(fs.readFileSync(path.join(projectDir, '.basin', 'server.json'), 'utf8')) as { pid?: unknown; url?: unknown };
    if (typeof info.pid !== 'number' || typeof info.url !== 'string') return null;
    process.kill(info.pid, 0);
    return info.url.replace(/\/$/, '');
  } catch {
    return null; // no file, a stale file of a dead process, or unreadable: probe the configured port instead
  }
}

async function viaServerOrBoot(cli: CliContext, projectDir: string, call: { method: string; path: string }, local: (gov: Governance) => Promise<unknown>): Promise<unknown> {
  const base = serverFromFile(projectDir) ?? `http://127.0.0.1:${projectPort(projectDir)}`;
  let serverUp = false;
  try {
    const r = await fetch(`${base}/api/status`, { signal: AbortSignal.timeout(1500) });
    // any Basin answer counts (a server without the platform plugin answers /api/status with its JSON 404):
    // the project is open there, and a second process may not open it (project lock)
    serverUp = r.ok || (r.headers.get('content-type') ?? '').includes('application/json');
  } catch {
    serverUp = false;
  }
  if (serverUp) {
    const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest' };
    if (process.env.BASIN_API_KEY) headers.authorization = `Bearer ${process.env.BASIN_API_KEY}`;
    const r = await fetch(`${base}${call.path}`, { method: call.method, headers });
    const body = (await r.json().catch(() => ({}))) as { error?: { message?: string } };
    if (!r.ok) throw new CliExit(EXIT.failure, `basin drift: the server answered ${r.status}: ${body.error?.message ?? 'no message'}${r.status === 401 ? ' (set BASIN_API_KEY to an API key with governance permissions)' : ''}`);
    return body;
  }
  const app = await cli.boot({ projectDir });
  try {
    const gov = app.tryResolve(governanceInternalRef);
    if (!gov) throw new CliExit(EXIT.failure, 'basin drift: the governance plugin is not loaded.');
    return await local(gov);
  } catch (e) {
    if (e instanceof CliExit) throw e;
    throw new CliExit(EXIT.failure, `basin drift: ${(e as Error).message}`);
  } finally {
    await app.close();
  }
}
