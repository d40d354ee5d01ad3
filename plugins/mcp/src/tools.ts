// The MCP tools and resources Basin offers agents. Each tool is a call of Basin's own HTTP API, so
// the API's permission checks, query guard and row caps apply unchanged; a tool is offered only when
// the caller's /api/tools lists every operation it uses (the same filter, by the key's role).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import * as z from 'zod';

export interface ApiCaller {
  (method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: unknown }>;
}

export interface ToolAudit {
  (entry: { tool: string; outcome: 'success' | 'failure'; args: Record<string, unknown>; error?: string }): void;
}

/** an API operation as /api/tools names it: "GET /api/catalog/impact/{model_name}" */
type Op = `${'GET' | 'POST'} /api/${string}`;

interface ToolSpec {
  name: string;
  description: string;
  /** the operations the tool calls; it is offered only when all are allowed */
  ops: Op[];
  input: z.ZodRawShape;
  /** true for tools that change something (sync, model runs) */
  write?: boolean;
  run(call: (method: string, urlPath: string, body?: unknown) => Promise<unknown>, args: any): Promise<unknown>;
}

const enc = encodeURIComponent;
const qs = (o: Record<string, unknown>) => {
  const p = Object.entries(o).filter(([, v]) => v !== undefined && v !== null && v !== '');
  return p.length ? `?${p.map(([k, v]) => `${k}=${enc(String(v))}`).join('&')}` : '';
};

export const TOOLS: ToolSpec[] = [
  { name: 'list_sources', description: 'Every configured source with its status, last sync, row count, freshness and attention flag.', ops: ['GET /api/sources'], input: {}, run: (c) => c('GET', '/api/sources') },
  {
    name: 'get_source',
    description: "One source's details: masked config, tables with columns, sync mode and recent sync history.",
    ops: ['GET /api/sources/{source_name}/details'],
    input: { name: z.string().describe('source name') },
    run: (c, a) => c('GET', `/api/sources/${enc(a.name)}/details`),
  },
  { name: 'catalog_summary', description: 'What the warehouse holds: sources, tables, models, row counts, freshness.', ops: ['GET /api/catalog/summary'], input: {}, run: (c) => c('GET', '/api/catalog/summary') },
  {
    name: 'catalog_search',
    description: 'Search table, model, column names and descriptions (ranked).',
    ops: ['GET /api/catalog/search'],
    input: { q: z.string().min(2).describe('search text, at least 2 characters') },
    run: (c, a) => c('GET', `/api/catalog/search${qs({ q: a.q })}`),
  },
  { name: 'lineage', description: 'The lineage graph: raw tables, staging, intermediate and mart models and their edges.', ops: ['GET /api/catalog/lineage'], input: {}, run: (c) => c('GET', '/api/catalog/lineage') },
  {
    name: 'impact',
    description: 'Everything downstream of a model (what breaks if it changes).',
    ops: ['GET /api/catalog/impact/{model_name}'],
    input: { model: z.string().describe('model name') },
    run: (c, a) => c('GET', `/api/catalog/impact/${enc(a.model)}`),
  },
  { name: 'list_models', description: 'Every dbt model with its layer, materialization and last run.', ops: ['GET /api/tx/models'], input: {}, run: (c) => c('GET', '/api/tx/models') },
  {
    name: 'get_model',
    description: "A model's raw and compiled SQL, columns, tests, dependencies and dependents.",
    ops: ['GET /api/catalog/models/{model_name}'],
    input: { model: z.string().describe('model name') },
    run: (c, a) => c('GET', `/api/catalog/models/${enc(a.model)}`),
  },
  {
    name: 'query',
    description: 'Run one read-only SELECT on the warehouse (the same guard and row cap as POST /api/query). Writes are refused.',
    ops: ['POST /api/query'],
    input: { sql: z.string().describe('a single SELECT statement') },
    run: (c, a) => c('POST', '/api/query', { sql: a.sql }),
  },
  {
    name: 'sync_logs',
    description: 'Recent sync log lines, newest first (all sources or one).',
    ops: ['GET /api/logs', 'GET /api/sources/{source_name}/logs'],
    input: { source: z.string().optional().describe('only this source'), limit: z.number().int().min(1).max(1000).optional() },
    run: (c, a) => c('GET', `${a.source ? `/api/sources/${enc(a.source)}/logs` : '/api/logs'}${qs({ limit: a.limit ?? 100 })}`),
  },
  {
    name: 'sync_history',
    description: "A source's recent syncs with status, rows and errors.",
    ops: ['GET /api/sources/{source_name}/details'],
    input: { source: z.string() },
    run: async (c, a) => {
      const d = (await c('GET', `/api/sources/${enc(a.source)}/details`)) as { sync_history?: { items: unknown[]; total: number } };
      return { source: a.source, ...(d.sync_history ?? { items: [], total: 0 }) };
    },
  },
  { name: 'attention', description: 'Sources needing attention: breaking schema drift, PII found, last sync failed.', ops: ['GET /api/governance/attention'], input: {}, run: (c) => c('GET', '/api/governance/attention') },
  {
    name: 'schema_drift',
    description: 'Schema drift events (added, removed, retyped columns), newest first.',
    ops: ['GET /api/governance/schema-drift'],
    input: { source: z.string().optional(), limit: z.number().int().min(1).max(1000).optional() },
    run: (c, a) => c('GET', `/api/governance/schema-drift${qs({ source: a.source, limit: a.limit ?? 100 })}`),
  },
  {
    name: 'trigger_sync',
    description: 'Start syncing sources (all enabled ones when none are named). Returns the started sync records.',
    ops: ['POST /api/sync/trigger'],
    write: true,
    input: { sources: z.array(z.string()).optional(), full_refresh: z.boolean().optional() },
    run: async (c, a) => {
      let names: string[] = a.sources ?? [];
      if (!names.length) names = ((await c('GET', '/api/sources')) as Array<{ name: string; enabled: boolean }>).filter((s) => s.enabled).map((s) => s.name);
      return c('POST', '/api/sync/trigger', { sources: names, full_refresh: !!a.full_refresh });
    },
  },
  {
    name: 'run_models',
    description: 'Run dbt models (a dbt selector, e.g. "stg_shop__orders+"; every model when omitted). Returns the run record.',
    ops: ['POST /api/tx/runs'],
    write: true,
    input: { select: z.string().optional(), full_refresh: z.boolean().optional() },
    run: (c, a) => c('POST', '/api/tx/runs', { command: 'run', ...(a.select ? { select: a.select } : {}), ...(a.full_refresh ? { full_refresh: true } : {}) }),
  },
];

/** the docs of the project's configuration files, shipped with Basin */
export const CONFIG_DOCS: Array<{ name: string; file: string; title: string }> = [
  { name: 'sources', file: 'sources.md', title: 'sources.yml: sources and their settings' },
  { name: 'source-types', file: 'source-types.md', title: 'Source types' },
  { name: 'scheduling', file: 'scheduling.md', title: 'schedules.yml: schedules and notifications' },
  { name: 'transform', file: 'transform.md', title: 'The dbt project (tx/)' },
  { name: 'governance', file: 'governance.md', title: 'Schema drift, PII and pii-overrides.yml' },
  { name: 'monitoring', file: 'monitoring.md', title: 'monitors.yml: metric monitors' },
  { name: 'catalog', file: 'catalog.md', title: 'Catalog and lineage' },
  { name: 'query', file: 'query.md', title: 'The read-only query endpoint' },
  { name: 'auth', file: 'auth.md', title: 'Users, roles and API keys' },
];

export function docsDir(): string | null {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (fs.existsSync(path.join(dir, 'docs', 'sources.md'))) return path.join(dir, 'docs');
    dir = path.dirname(dir);
  }
  return null;
}

const opKey = (method: string, p: string) => `${method.toUpperCase()} ${p}`;

/** the tools a caller may use: those whose every operation is in the caller's /api/tools */
export async function allowedTools(call: ApiCaller): Promise<ToolSpec[]> {
  const r = await call('GET', '/api/tools');
  if (r.status !== 200 || !Array.isArray(r.body)) return [];
  const ops = new Set((r.body as Array<{ method: string; path: string }>).map((t) => opKey(t.method, t.path)));
  return TOOLS.filter((t) => t.ops.every((o) => ops.has(o)));
}

class ToolCallError extends Error {}

/** An MCP server whose tools call Basin's API through `call` as the authenticated caller. */
export async function buildMcpServer(call: ApiCaller, audit: ToolAudit, version: string): Promise<McpServer> {
  const server = new McpServer({ name: 'basin', version }, { capabilities: { tools: {}, resources: {} } });
  const request = async (method: string, urlPath: string, body?: unknown) => {
    const r = await call(method, urlPath, body);
    if (r.status >= 300) {
      const e = (r.body as { error?: { code?: string; message?: string } })?.error;
      throw new ToolCallError(`${e?.code ?? `http_${r.status}`}: ${e?.message ?? `HTTP ${r.status}`}`);
    }
    return r.body;
  };
  for (const t of await allowedTools(call)) {
    server.registerTool(t.name, { description: t.description, inputSchema: t.input, annotations: { readOnlyHint: !t.write } }, async (args: Record<string, unknown>) => {
      try {
        const result = await t.run(request, args ?? {});
        audit({ tool: t.name, outcome: 'success', args: args ?? {} });
        return { content: [{ type: 'text' as const, text: JSON.stringify(result, null, 2) }], structuredContent: result && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : { items: result } };
      } catch (e) {
        const message = (e as Error).message;
        audit({ tool: t.name, outcome: 'failure', args: args ?? {}, error: message });
        return { isError: true, content: [{ type: 'text' as const, text: message }] };
      }
    });
  }
  const docs = docsDir();
  if (docs) {
    for (const d of CONFIG_DOCS) {
      const file = path.join(docs, d.file);
      if (!fs.existsSync(file)) continue;
      server.registerResource(d.name, `basin://docs/${d.name}`, { title: d.title, description: d.title, mimeType: 'text/markdown' }, async (uri) => ({
        contents: [{ uri: uri.href, mimeType: 'text/markdown', text: fs.readFileSync(file, 'utf8') }],
      }));
    }
  }
  server.registerResource('project-config', 'basin://project/config', { title: 'Project metadata and service URLs', mimeType: 'application/json' }, async (uri) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(await request('GET', '/api/config'), null, 2) }],
  }));
  return server;
}

/** what the audit log keeps of a call's arguments: short, never a whole query text */
export function auditArgs(args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) out[k] = typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}…` : v;
  return out;
}
