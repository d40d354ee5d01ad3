import type { WarehouseClient } from '@basin/core';
import { isMetadataColumn } from '../schema-reader.js';
import { classifyColumn, isInspectableType, type ClassifyOptions, type ColumnVerdict } from './classify.js';

export interface ColumnScan extends ColumnVerdict {
  column: string;
}

/**
 * Samples up to `sampleRows` rows of a table (reservoir sample, repeatable) in one query and
 * classifies every column. A table bigger than `readRows` (by the engine's estimate) is sampled from
 * about that many rows spread over it, so the scan after a load stays bounded. Values stay in memory
 * for the scan only; results carry masked examples.
 */
export async function scanTable(warehouse: WarehouseClient, schema: string, table: string, sampleRows: number, opts: ClassifyOptions, readRows = 100_000): Promise<ColumnScan[]> {
  const cols = ((await warehouse.describeTable(schema, table)) ?? []).filter((c) => !isMetadataColumn(c.name)).map((c) => ({ column_name: c.name, data_type: c.type }));
  if (!cols.length) return [];
  const inspect = cols.filter((c) => isInspectableType(c.data_type));
  let rows: Array<Record<string, string | null>> = [];
  if (inspect.length) {
    const cap = warehouse.capabilities;
    const select = inspect.map((c, i) => `CAST(${cap.quoteIdent(c.column_name)} AS VARCHAR) AS c${i}`).join(', ');
    const n = Math.max(1, Math.floor(sampleRows));
    const estimatedRows = (await warehouse.listTables(schema)).find((t) => t.name === table)?.estimatedRows ?? null;
    const from = cap.sample(cap.qualify(schema, table), n, { estimatedRows, maxRowsRead: readRows });
    const res = await warehouse.query(`SELECT ${select} FROM ${from}`, { timeoutMs: 120_000, maxRows: n, internal: true });
    rows = res.rows.map((r) => Object.fromEntries(r.map((v, i) => [`c${i}`, v === null || v === undefined ? null : String(v)])));
  }
  const out: ColumnScan[] = [];
  for (const c of cols) {
    const idx = inspect.indexOf(c);
    const values = idx < 0 ? [] : rows.map((r) => r[`c${idx}`]).filter((v): v is string => v !== null && v !== undefined);
    const verdict = classifyColumn(c.column_name, values, opts, c.data_type);
    if (verdict) out.push({ column: c.column_name, ...verdict });
  }
  return out;
}
