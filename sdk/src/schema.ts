import type { ColumnSpec } from './types.js';

const TS = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

type Kind = 'BOOLEAN' | 'BIGINT' | 'DOUBLE' | 'DATE' | 'TIMESTAMP' | 'TIMESTAMPTZ' | 'VARCHAR' | 'JSON';

function kindOf(v: unknown): Kind | null {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean':
      return 'BOOLEAN';
    case 'number':
      return Number.isSafeInteger(v) ? 'BIGINT' : 'DOUBLE';
    case 'bigint':
      return 'BIGINT';
    case 'string':
      if (DATE.test(v)) return 'DATE';
      if (TS.test(v)) return /(Z|[+-]\d{2}:?\d{2})$/.test(v) ? 'TIMESTAMPTZ' : 'TIMESTAMP';
      return 'VARCHAR';
    case 'object':
      return v instanceof Date ? 'TIMESTAMPTZ' : 'JSON';
    default:
      return 'VARCHAR';
  }
}

/** The narrowest type holding both: integers widen to DOUBLE, dates to timestamps, anything else to VARCHAR. */
function widen(a: Kind, b: Kind): Kind {
  if (a === b) return a;
  const pair = new Set([a, b]);
  if (pair.has('BIGINT') && pair.has('DOUBLE')) return 'DOUBLE';
  if (pair.has('DATE') && (pair.has('TIMESTAMP') || pair.has('TIMESTAMPTZ'))) return pair.has('TIMESTAMPTZ') ? 'TIMESTAMPTZ' : 'TIMESTAMP';
  if (pair.has('TIMESTAMP') && pair.has('TIMESTAMPTZ')) return 'TIMESTAMPTZ';
  if (pair.has('JSON')) return 'JSON';
  return 'VARCHAR';
}

/**
 * Columns (DuckDB type names) observed in a sample of records, in first-seen order; a column
 * that is null somewhere, or missing from some records, is nullable; all-null columns are VARCHAR.
 */
export function inferColumns(records: Record<string, unknown>[]): ColumnSpec[] {
  const cols = new Map<string, { kind: Kind | null; nulls: boolean; seen: number }>();
  for (const r of records) {
    for (const [k, v] of Object.entries(r)) {
      const c = cols.get(k) ?? { kind: null, nulls: false, seen: 0 };
      c.seen++;
      const kind = kindOf(v);
      if (kind === null) c.nulls = true;
      else c.kind = c.kind ? widen(c.kind, kind) : kind;
      cols.set(k, c);
    }
  }
  return [...cols].map(([name, c]) => ({ name, type: c.kind ?? 'VARCHAR', nullable: c.nulls || c.seen < records.length }));
}
