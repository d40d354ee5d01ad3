// Dashboards kept as files in the project (`dashboards/*.yml`), created in Superset through its REST API
// once Superset runs: the demo's shop dashboard is one. A dashboard whose slug exists is left alone, so
// edits made in Superset are never overwritten.
import fs from 'node:fs';
import path from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parse } from 'yaml';
import { httpCall } from '@basin/core';
import { signInHeaders, type SupersetIdentity } from './sign-in.js';

const Chart = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 250 }),
    /** schema.table in the warehouse (a dbt model or a raw table) */
    dataset: Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*\\.[A-Za-z_][A-Za-z0-9_]*$' }),
    /** Superset's own chart form data (viz_type, metrics, groupby, ...); Basin adds the datasource */
    params: Type.Object({ viz_type: Type.String({ minLength: 1 }) }, { additionalProperties: true }),
    /** grid columns of 12 */
    width: Type.Optional(Type.Integer({ minimum: 1, maximum: 12 })),
    height: Type.Optional(Type.Integer({ minimum: 10, maximum: 200 })),
  },
  { additionalProperties: false },
);
export const DashboardFile = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 500 }),
    slug: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,254}$' }),
    /** shown in the YAML only (Superset's dashboard has no description field) */
    description: Type.Optional(Type.String()),
    charts: Type.Array(Chart, { minItems: 1, maxItems: 50 }),
  },
  { additionalProperties: false },
);
export type DashboardFile = Static<typeof DashboardFile>;

export interface ProvisionResult {
  file: string;
  slug?: string;
  state: 'created' | 'exists' | 'failed';
  dashboard_id?: number;
  error?: string;
}

/** Reads and checks dashboards/*.yml; a file that does not fit is reported, not thrown. */
export function readDashboardFiles(dir: string): Array<{ file: string; def?: DashboardFile; error?: string }> {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => {
      try {
        const def: unknown = parse(fs.readFileSync(path.join(dir, f), 'utf8'));
        if (!Value.Check(DashboardFile, def)) {
          const e = [...Value.Errors(DashboardFile, def)][0];
          return { file: f, error: `${e?.path || '/'}: ${e?.message ?? 'invalid'}` };
        }
        return { file: f, def };
      } catch (e) {
        return { file: f, error: `not YAML: ${(e as Error).message.split('\n')[0]}` };
      }
    });
}

/** a provisioning call that gets no answer fails instead of holding the start for ever */
const SUPERSET_CALL_TIMEOUT_MS = 30_000;

/** A signed-in admin session on Superset's REST API (loopback, with the proxy's trusted headers). */
class SupersetApi {
  private cookie = '';
  private csrf = '';
  constructor(
    private readonly base: string,
    private readonly headers: Record<string, string>,
  ) {}

  async open(): Promise<void> {
    const res = await httpCall(`${this.base}/api/v1/security/csrf_token/`, { method: 'GET', headers: this.headers, timeoutMs: SUPERSET_CALL_TIMEOUT_MS });
    const body = JSON.parse(res.text) as { result?: string };
    if (res.status < 200 || res.status >= 300 || !body.result) throw new Error(`Superset refused the provisioning session (${res.status})`);
    this.csrf = body.result;
    this.cookie = (res.headers['set-cookie'] ?? []).map((c) => c.split(';')[0]).join('; ');
  }

  async call<T>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await httpCall(`${this.base}${p}`, {
      method,
      headers: { ...this.headers, cookie: this.cookie, 'x-csrftoken': this.csrf, referer: `${this.base}/`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      timeoutMs: SUPERSET_CALL_TIMEOUT_MS,
    });
    const text = res.text;
    let json: unknown = text;
    try {
      json = JSON.parse(text);
    } catch {
      /* an HTML error page */
    }
    return { status: res.status, body: json as T };
  }

  async must<T>(method: string, p: string, body?: unknown): Promise<T> {
    const r = await this.call<T>(method, p, body);
    if (r.status >= 300) throw new Error(`${method} ${p} answered ${r.status}: ${JSON.stringify(r.body).slice(0, 300)}`);
    return r.body;
  }
}

/** The grid Superset draws: one row per chart pair (widths add up to 12 per row). */
function layout(title: string, charts: Array<{ id: number; name: string; width: number; height: number }>): Record<string, unknown> {
  const pos: Record<string, unknown> = {
    DASHBOARD_VERSION_KEY: 'v2',
    ROOT_ID: { type: 'ROOT', id: 'ROOT_ID', children: ['GRID_ID'] },
    GRID_ID: { type: 'GRID', id: 'GRID_ID', children: [] as string[], parents: ['ROOT_ID'] },
    HEADER_ID: { id: 'HEADER_ID', type: 'HEADER', meta: { text: title } },
  };
  const grid = pos.GRID_ID as { children: string[] };
  let row: { id: string; children: string[]; used: number } | null = null;
  for (const c of charts) {
    if (!row || row.used + c.width > 12) {
      const id = `ROW-${grid.children.length + 1}`;
      row = { id, children: [], used: 0 };
      grid.children.push(id);
      pos[id] = { type: 'ROW', id, children: row.children, parents: ['ROOT_ID', 'GRID_ID'], meta: { background: 'BACKGROUND_TRANSPARENT' } };
    }
    const id = `CHART-${c.id}`;
    row.children.push(id);
    row.used += c.width;
    pos[id] = { type: 'CHART', id, children: [], parents: ['ROOT_ID', 'GRID_ID', row.id], meta: { width: c.width, height: c.height, chartId: c.id, sliceName: c.name } };
  }
  return pos;
}

/**
 * Creates each dashboard of dashboards/*.yml that Superset does not have yet (by slug): its datasets on the
 * warehouse database, its charts, and its layout. Returns what happened per file.
 */
export async function provisionDashboards(opts: {
  dir: string;
  port: number;
  secret: string;
  identity: SupersetIdentity;
  databaseId: number;
  /** the schema a file's `schema.table` has on the engine (a server warehouse's schema_prefix); none: as written */
  schemaName?: (schema: string) => string;
}): Promise<ProvisionResult[]> {
  const files = readDashboardFiles(opts.dir);
  if (!files.length) return [];
  const api = new SupersetApi(`http://127.0.0.1:${opts.port}/bi`, signInHeaders(opts.secret, opts.identity));
  await api.open();
  const datasets = new Map<string, number>();
  const datasetId = async (qualified: string): Promise<number> => {
    const known = datasets.get(qualified);
    if (known) return known;
    const [basinSchema, table] = qualified.split('.') as [string, string];
    const schema = opts.schemaName ? opts.schemaName(basinSchema) : basinSchema;
    const q = `(filters:!((col:table_name,opr:eq,value:'${table}')),page_size:100)`;
    const list = await api.must<{ result: Array<{ id: number; schema: string; database: { id: number } }> }>('GET', `/api/v1/dataset/?q=${encodeURIComponent(q)}`);
    let id = list.result.find((d) => d.schema === schema && d.database.id === opts.databaseId)?.id;
    if (!id) id = (await api.must<{ id: number }>('POST', '/api/v1/dataset/', { database: opts.databaseId, schema, table_name: table })).id;
    datasets.set(qualified, id);
    return id;
  };

  const out: ProvisionResult[] = [];
  for (const f of files) {
    if (!f.def) {
      out.push({ file: f.file, state: 'failed', error: f.error });
      continue;
    }
    const def = f.def;
    try {
      const existing = await api.call<{ result?: { id: number } }>('GET', `/api/v1/dashboard/${def.slug}`);
      if (existing.status === 200 && existing.body.result) {
        out.push({ file: f.file, slug: def.slug, state: 'exists', dashboard_id: existing.body.result.id });
        continue;
      }
      // datasets first: a missing table (dbt not run yet) fails before anything is created
      const ids = [];
      for (const c of def.charts) ids.push(await datasetId(c.dataset));
      const dash = await api.must<{ id: number }>('POST', '/api/v1/dashboard/', { dashboard_title: def.title, slug: def.slug, published: true });
      const charts: Array<{ id: number; name: string; width: number; height: number }> = [];
      for (const [i, c] of def.charts.entries()) {
        const params = { ...c.params, datasource: `${ids[i]}__table` };
        const made = await api.must<{ id: number }>('POST', '/api/v1/chart/', {
          slice_name: c.name,
          viz_type: c.params.viz_type,
          datasource_id: ids[i],
          datasource_type: 'table',
          params: JSON.stringify(params),
          dashboards: [dash.id],
        });
        charts.push({ id: made.id, name: c.name, width: c.width ?? 6, height: c.height ?? 50 });
      }
      await api.must('PUT', `/api/v1/dashboard/${dash.id}`, { position_json: JSON.stringify(layout(def.title, charts)) });
      out.push({ file: f.file, slug: def.slug, state: 'created', dashboard_id: dash.id });
    } catch (e) {
      out.push({ file: f.file, slug: def.slug, state: 'failed', error: (e as Error).message });
    }
  }
  return out;
}
