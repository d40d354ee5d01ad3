const NUMERIC = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT', 'UTINYINT', 'USMALLINT', 'UINTEGER', 'UBIGINT', 'FLOAT', 'DOUBLE']);

/**
 * A type both old and new values fit in, used when a column's type differs between batches or between
 * a load and the raw table: numbers widen to DOUBLE, anything else to VARCHAR. Returns `have` when the
 * column needs no change.
 */
export function widen(have: string, incoming: string): string {
  if (have === incoming) return have;
  const wide = NUMERIC.has(have) && NUMERIC.has(incoming) ? 'DOUBLE' : 'VARCHAR';
  return wide === have ? have : wide;
}
