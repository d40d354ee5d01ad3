import type { WarehouseClient } from '@basin/core';
import { queryErrors } from './errors.js';

/**
 * POST /api/query on a server warehouse (PostgreSQL, Trino): the engine's read-only user runs the
 * statement (writes refused by the engine itself), cancelled at the timeout, capped at maxRows; the
 * body has the shape of the DuckDB path's. The response-bytes cap truncates rows the same way.
 */
export async function runOnServerWarehouse(client: WarehouseClient, sql: string, o: { maxRows: number; maxBytes: number; timeoutSeconds: number }): Promise<Record<string, unknown>> {
  const started = performance.now();
  let result;
  try {
    result = await client.query(sql, { timeoutMs: o.timeoutSeconds * 1000, maxRows: o.maxRows });
  } catch (e) {
    const err = e as Error & { code?: string };
    if (/cancelled|canceling statement/i.test(err.message)) throw queryErrors.query_timeout({ seconds: o.timeoutSeconds });
    // 25006 read-only transaction, 42501 insufficient privilege, 42601 a second statement: the read-only user's refusals
    if (err.code === '25006' || err.code === '42501' || /read-only|permission denied|access denied/i.test(err.message)) {
      throw queryErrors.query_not_allowed({ reason: `Only reading is allowed here: ${err.message}` });
    }
    if (err.code === '42601') throw queryErrors.invalid_sql({ reason: err.message });
    throw queryErrors.query_failed({ reason: err.message });
  }
  const rows: unknown[][] = [];
  let bytes = 0;
  let truncated: 'rows' | 'bytes' | null = result.truncated ? 'rows' : null;
  for (const r of result.rows) {
    const size = Buffer.byteLength(JSON.stringify(r)) + 1;
    if (bytes + size > o.maxBytes) {
      truncated = 'bytes';
      break;
    }
    bytes += size;
    rows.push(r);
  }
  return {
    columns: result.columns,
    rows,
    row_count: rows.length,
    truncated: truncated !== null,
    ...(truncated ? { truncated_reason: truncated } : {}),
    elapsed_ms: Math.round(performance.now() - started),
  };
}
