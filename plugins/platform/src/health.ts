import fs from 'node:fs';
import path from 'node:path';
import { isBasinTable, type BasinApp } from '@basin/core';

export type Layer = 'raw' | 'staging' | 'intermediate' | 'marts' | 'other';

/** Classifies a warehouse table into a layer by the naming conventions Basin and dbt use. */
export function layerOf(schema: string, table: string): Layer {
  if (schema.startsWith('raw_') || schema === 'raw') return 'raw';
  if (table.startsWith('stg_') || /(^|_)staging$/.test(schema)) return 'staging';
  if (table.startsWith('int_') || /(^|_)intermediate$/.test(schema)) return 'intermediate';
  if (/(^|_)marts?$/.test(schema) || /^(fct|dim|mart)_/.test(table)) return 'marts';
  return 'other';
}

const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;

/** The health object of SPEC "Platform health object"; plugins add their parts through contributors. */
export async function platformHealth(app: BasinApp): Promise<Record<string, unknown>> {
  const critical: string[] = [];
  const warnings: string[] = [];
  let database: Record<string, unknown>;
  // the backend's own health (issue 22): type, reachable, round trip; where it is stays out of this public answer
  const wh = await app.warehouseClient.health();
  const warehouse = { type: wh.type, status: wh.ok ? 'ok' : 'error', latency_ms: wh.latencyMs ?? null };
  try {
    if (!wh.ok) throw new Error(wh.message ?? 'no answer');
    // Basin's own tables (the files table beside raw tables) are not counted as data
    const rows = (await app.warehouseClient.listTables()).filter((t) => !isBasinTable(t.name)).map((t) => ({ s: t.schema, t: t.name }));
    const count = (l: Layer) => rows.filter((r) => layerOf(r.s, r.t) === l).length;
    let size = 0;
    // the embedded file's size; a server engine's storage is its own
    if (app.warehouseClient.capabilities.servingCopy) for (const f of [app.warehouse.dbPath, `${app.warehouse.dbPath}.wal`]) size += fs.existsSync(f) ? fs.statSync(f).size : 0;
    database = { status: 'ok', size_mb: round(size / 1048576), tables: rows.length, raw_tables: count('raw'), staging_tables: count('staging'), intermediate_tables: count('intermediate'), marts_tables: count('marts') };
  } catch (e) {
    critical.push(`warehouse unreachable: ${(e as Error).message}`);
    database = { status: 'error', size_mb: 0, tables: 0, raw_tables: 0, staging_tables: 0, marts_tables: 0 };
  }
  let disk: Record<string, unknown>;
  try {
    const st = fs.statfsSync(path.dirname(app.warehouse.dbPath));
    const free = (st.bavail * st.bsize) / 1e9;
    const total = (st.blocks * st.bsize) / 1e9;
    const status = free < 1 ? 'critical' : free / total < 0.1 ? 'warning' : 'ok';
    if (status === 'critical') critical.push(`only ${round(free)} GB of disk left`);
    if (status === 'warning') warnings.push(`disk is ${Math.round((1 - free / total) * 100)}% full`);
    disk = { status, free_gb: round(free), total_gb: round(total) };
  } catch {
    disk = { status: 'unknown', free_gb: 0, total_gb: 0 };
  }
  const contributed = await app.health();
  const merged: Record<string, unknown> = {
    status: 'healthy',
    timestamp: app.clock.now().toISOString(),
    database,
    warehouse,
    disk,
    sync_failures: [],
    tx_failures: [],
    total_sources: 0,
    enabled_sources: 0,
    critical_issues: critical,
    warnings,
    ...contributed,
  };
  merged.critical_issues = [...critical, ...((contributed.critical_issues as string[]) ?? [])];
  merged.warnings = [...warnings, ...((contributed.warnings as string[]) ?? [])];
  const crit = (merged.critical_issues as unknown[]).length;
  const warn = (merged.warnings as unknown[]).length + (merged.sync_failures as unknown[]).length + (merged.tx_failures as unknown[]).length;
  merged.status = crit ? 'critical' : warn ? 'degraded' : 'healthy';
  return merged;
}
