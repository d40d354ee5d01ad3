// DuckDB loads with the first preview, not with every CLI command
const duckdb = () => import('@duckdb/node-api');
import { literal } from '@basin/core';
import { notConnected, SourceError, type CheckResult, type ReadItem, type ResourceSpec, type SourceContext, type SourceDefinition } from '@basin/sdk';

export interface ResourcePreview {
  name: string;
  columns: string[];
  rows: unknown[][];
}

export interface SourcePreview {
  check: CheckResult;
  resources: ResourcePreview[];
  /** why no rows could be shown (a read error), when none could */
  error?: string;
}

/** The context a source's check and a preview read get from the wizard: secrets from the environment and .env. */
export function wizardContext(o: { name: string; type?: string; config: Record<string, unknown>; projectDir: string; env: Record<string, string | undefined>; signal: AbortSignal }): SourceContext {
  const log = { info() {}, warn() {}, error() {} };
  return {
    name: o.name,
    config: o.config,
    projectDir: o.projectDir,
    secret(name: string): string {
      const v = o.env[name];
      if (!v) throw new SourceError('missing_secret', `Environment variable "${name}" is not set; add ${name}=... to .env or the environment.`, { variable: name });
      return v;
    },
    credentials: {},
    options: { fullRefresh: true },
    signal: o.signal,
    log,
    fetch: globalThis.fetch,
    // the wizard has no provider connection at hand: an oauth2 source's check says to connect it first
    oauthToken: notConnected(o.type ?? o.name),
  };
}

const cell = (v: unknown): unknown => (typeof v === 'bigint' ? v.toString() : v instanceof Date ? v.toISOString() : v && typeof v === 'object' ? JSON.stringify(v) : v);

/** the first rows of a file the way the loader reads it (DuckDB's own reader, in memory) */
async function fileRows(item: Extract<ReadItem, { kind: 'file' }>, limit: number): Promise<{ columns: string[]; rows: unknown[][] }> {
  const db = await (await duckdb()).DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const reader = item.format === 'csv' ? `read_csv(${literal(item.path)}, header=true)` : item.format === 'json' ? `read_json(${literal(item.path)})` : `read_parquet(${literal(item.path)})`;
    const r = await c.runAndReadAll(`SELECT * FROM ${reader} LIMIT ${limit}`);
    return { columns: r.columnNames(), rows: r.getRows().map((row) => row.map(cell)) };
  } finally {
    c.closeSync();
    db.closeSync();
  }
}

/**
 * Runs the source's `check`, then reads until each resource has shown `limit` rows (or the read ends
 * or `timeoutMs` passes): what `basin source add` shows before it saves. Nothing is written anywhere.
 */
export async function checkAndPreview(def: SourceDefinition, ctxFor: (signal: AbortSignal) => SourceContext, opts: { limit?: number; timeoutMs?: number } = {}): Promise<SourcePreview> {
  const limit = opts.limit ?? 5;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new SourceError('timeout', 'the preview took too long')), opts.timeoutMs ?? 30_000);
  const ctx = ctxFor(controller.signal);
  try {
    let check: CheckResult;
    try {
      check = await def.check(ctx as never);
    } catch (e) {
      check = { ok: false, message: (e as Error).message };
    }
    if (!check.ok) return { check, resources: [] };
    const previews = new Map<string, ResourcePreview>();
    try {
      const resources: ResourceSpec[] = def.resources?.length ? def.resources.filter((r) => !def.defaultResources?.length || def.defaultResources.includes(r.name)) : await def.discover(ctx as never);
      const wanted = Array.isArray(ctx.config.resources) ? resources.filter((r) => (ctx.config.resources as string[]).includes(r.name)) : resources;
      const full = () => wanted.length > 0 && wanted.every((r) => (previews.get(r.name)?.rows.length ?? 0) >= limit);
      const it = def.read(ctx as never, wanted, {})[Symbol.asyncIterator]();
      try {
        while (!full() && !controller.signal.aborted) {
          const next = await it.next();
          if (next.done) break;
          const item = next.value;
          if (item.kind !== 'records' && item.kind !== 'file') continue;
          const p = previews.get(item.resource) ?? { name: item.resource, columns: [], rows: [] };
          previews.set(item.resource, p);
          if (p.rows.length >= limit) continue;
          if (item.kind === 'records') {
            for (const rec of item.records.slice(0, limit - p.rows.length)) {
              for (const k of Object.keys(rec)) if (!p.columns.includes(k)) p.columns.push(k);
              p.rows.push(p.columns.map((k) => cell(rec[k])));
            }
          } else {
            const got = await fileRows(item, limit - p.rows.length);
            if (!p.columns.length) p.columns = got.columns;
            for (const row of got.rows) p.rows.push(p.columns.map((c) => row[got.columns.indexOf(c)]));
          }
        }
      } finally {
        controller.abort();
        await it.return?.(undefined).catch(() => undefined);
      }
    } catch (e) {
      return { check, resources: [...previews.values()], error: (e as Error).message };
    }
    return { check, resources: [...previews.values()] };
  } finally {
    clearTimeout(timer);
  }
}

/** a preview as text: one small table per resource */
export function formatPreview(p: ResourcePreview, width = 100): string {
  if (!p.rows.length) return `  ${p.name}: no rows`;
  const text = (v: unknown) => (v === null || v === undefined ? '' : String(v));
  const cols = p.columns.map((c, i) => Math.min(24, Math.max(c.length, ...p.rows.map((r) => text(r[i]).length))));
  const fit = (s: string, w: number) => (s.length > w ? `${s.slice(0, w - 1)}~` : s.padEnd(w));
  const line = (cells: string[]) => `    ${cells.map((c, i) => fit(c, cols[i]!)).join(' | ')}`.slice(0, width);
  return [`  ${p.name}:`, line(p.columns), ...p.rows.map((r) => line(r.map(text)))].join('\n');
}
