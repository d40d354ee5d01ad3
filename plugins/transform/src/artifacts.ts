import fs from 'node:fs';
import path from 'node:path';
import { FAILED_STATUSES } from './dbt-log.js';
import type { LatestModelResult } from './history.js';
import type { TxModelResult } from './types.js';

const readJson = (file: string): any | null => {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return null;
  }
};

export const readManifest = (targetDir: string) => readJson(path.join(targetDir, 'manifest.json'));

/** Results of the last dbt invocation from target/run_results.json (null when dbt wrote none). */
export function readRunResults(targetDir: string, manifest: any | null): TxModelResult[] | null {
  const rr = readJson(path.join(targetDir, 'run_results.json'));
  if (!rr || !Array.isArray(rr.results)) return null;
  return rr.results.map((r: any): TxModelResult => {
    const node = manifest?.nodes?.[r.unique_id];
    const rows = r.adapter_response?.rows_affected;
    const status = String(r.status);
    return {
      name: node?.name ?? String(r.unique_id).split('.').pop(),
      unique_id: r.unique_id,
      resource_type: node?.resource_type ?? String(r.unique_id).split('.')[0],
      status,
      execution_time: typeof r.execution_time === 'number' ? Math.round(r.execution_time * 1000) / 1000 : null,
      rows_affected: typeof rows === 'number' ? rows : null,
      error: FAILED_STATUSES.has(status) || status === 'warn' ? (r.message ?? null) : null,
    };
  });
}

const LAYERS = ['staging', 'intermediate', 'marts'];
/** staging / intermediate / marts from the model's folder under models/; 'other' elsewhere. */
export function layerOf(node: { path?: string; original_file_path?: string }): string {
  const rel = String(node.path ?? '').replace(/\\/g, '/');
  const first = rel.split('/')[0] ?? '';
  return LAYERS.includes(first) ? first : 'other';
}

export interface TxModelView {
  name: string;
  unique_id: string;
  resource_type: 'model' | 'source';
  layer: string;
  materialization: string | null;
  schema: string | null;
  description: string;
  tags: string[];
  depends_on: string[];
  path: string | null;
  last_run: { run_id: string; status: string; finished_at: string; duration_seconds: number | null; rows_affected: number | null; error: string | null } | null;
  status: string | null;
  duration_seconds: number | null;
  rows_affected: number | null;
  error: string | null;
  /** sources only: the raw table no longer exists in the warehouse */
  missing_in_warehouse?: boolean;
}

/** Every model and source of manifest.json joined with its most recent run result. */
export function listModels(manifest: any | null, latest: Map<string, LatestModelResult>, missingTables: Set<string> = new Set()): TxModelView[] {
  if (!manifest) return [];
  const out: TxModelView[] = [];
  const last = (name: string) => {
    const r = latest.get(name);
    return r ? { run_id: r.run_id, status: r.status, finished_at: r.finished_at, duration_seconds: r.execution_time, rows_affected: r.rows_affected, error: r.error } : null;
  };
  for (const n of Object.values<any>(manifest.nodes ?? {})) {
    if (n.resource_type !== 'model') continue;
    const lr = last(n.name);
    out.push({
      name: n.name,
      unique_id: n.unique_id,
      resource_type: 'model',
      layer: layerOf(n),
      materialization: n.config?.materialized ?? null,
      schema: n.schema ?? null,
      description: n.description ?? '',
      tags: n.tags ?? [],
      depends_on: n.depends_on?.nodes ?? [],
      path: n.original_file_path ?? null,
      last_run: lr,
      status: lr?.status ?? null,
      duration_seconds: lr?.duration_seconds ?? null,
      rows_affected: lr?.rows_affected ?? null,
      error: lr?.error ?? null,
    });
  }
  for (const s of Object.values<any>(manifest.sources ?? {})) {
    const view: TxModelView = {
      name: `${s.source_name}.${s.name}`,
      unique_id: s.unique_id,
      resource_type: 'source',
      layer: 'source',
      materialization: null,
      schema: s.schema ?? null,
      description: s.description ?? '',
      tags: s.tags ?? [],
      depends_on: [],
      path: s.original_file_path ?? null,
      last_run: null,
      status: null,
      duration_seconds: null,
      rows_affected: null,
      error: null,
    };
    if (missingTables.has(`${s.schema}.${s.identifier ?? s.name}`.toLowerCase())) view.missing_in_warehouse = true;
    out.push(view);
  }
  return out.sort((a, b) => a.unique_id.localeCompare(b.unique_id));
}

/** Is `name` a model in the manifest? */
export const hasModel = (manifest: any | null, name: string): boolean =>
  !!manifest && Object.values<any>(manifest.nodes ?? {}).some((n) => n.resource_type === 'model' && n.name === name);
