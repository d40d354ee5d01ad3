import { ident, type Warehouse } from '@basin/core';
import { isMetadataColumn } from '../schema-reader.js';
import { classifyColumn, isInspectableType, type ClassifyOptions, type ColumnVerdict } from './classify.js';

export interface ColumnScan extends ColumnVerdict {
  column: string;
}

/**
 * Samples up to `sampleRows` rows of a table (reservoir sample, repeatable) in one query and
 * classifies every column. Values stay in memory for the scan only; results carry masked examples.
 */
export async function scanTable(warehouse: Warehouse, schema: string, table: string, sampleRows: number, opts: ClassifyOptions): Promise<ColumnScan[]> {
  const cols = (
    await warehouse.query<{ column_name: string; data_type: string }>(
      'SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = current_database() AND table_schema = $schema AND table_name = $table ORDER BY ordinal_position',
      { schema, table },
    )
  ).filter((c) => !isMetadataColumn(c.column_name));
  if (!cols.length) return [];
  const inspect = cols.filter((c) => isInspectableType(c.data_type));
  let rows: Array<Record<string, string | null>> = [];
  if (inspect.length) {
    const select = inspect.map((c, i) => `CAST(${ident(c.column_name)} AS VARCHAR) AS c${i}`).join(', ');
    const n = Math.max(1, Math.floor(sampleRows));
    rows = await warehouse.query(`SELECT ${select} FROM ${ident(schema)}.${ident(table)} USING SAMPLE reservoir(${n} ROWS) REPEATABLE (42)`);
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
