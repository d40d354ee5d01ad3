import type pg from 'pg';

/** PostgreSQL base type (pg_type.typname) -> DuckDB type, for the types with a faithful match. */
const SCALAR: Record<string, string> = {
  int2: 'SMALLINT',
  int4: 'INTEGER',
  int8: 'BIGINT',
  oid: 'BIGINT',
  float4: 'FLOAT',
  float8: 'DOUBLE',
  bool: 'BOOLEAN',
  text: 'VARCHAR',
  varchar: 'VARCHAR',
  bpchar: 'VARCHAR',
  char: 'VARCHAR',
  name: 'VARCHAR',
  citext: 'VARCHAR',
  uuid: 'UUID',
  date: 'DATE',
  timestamp: 'TIMESTAMP',
  timestamptz: 'TIMESTAMPTZ',
  time: 'TIME',
  interval: 'INTERVAL',
  json: 'JSON',
  jsonb: 'JSON',
};
/** element types whose arrays become DuckDB lists (node-pg parses them into JS arrays) */
const LIST_ELEMENTS = new Set(['int2', 'int4', 'int8', 'float4', 'float8', 'bool', 'text', 'varchar', 'bpchar', 'uuid']);

export interface PgColumn {
  name: string;
  /** base type name (domains resolved), e.g. int4, numeric, _int4 */
  typname: string;
  /** element type name for arrays */
  elem: string | null;
  /** format_type() of the base type, e.g. numeric(12,2) */
  formatted: string;
  notNull: boolean;
}

/**
 * The DuckDB type a PostgreSQL column loads as. numeric(p,s) keeps its precision up to 38 digits;
 * unconstrained numeric becomes DOUBLE. Types without a faithful DuckDB match (money, bytea, timetz,
 * inet, enums, ranges, geometry, composites, other arrays) load as VARCHAR in PostgreSQL's text form.
 */
export function duckdbType(c: Pick<PgColumn, 'typname' | 'elem' | 'formatted'>): string {
  if (c.typname === 'numeric') {
    const m = /^numeric\((\d+),(\d+)\)$/.exec(c.formatted);
    if (m && Number(m[1]) <= 38) return `DECIMAL(${m[1]},${m[2]})`;
    return 'DOUBLE';
  }
  if (c.elem && LIST_ELEMENTS.has(c.elem)) return `${SCALAR[c.elem]}[]`;
  return SCALAR[c.typname] ?? 'VARCHAR';
}

/** column types usable as an incremental cursor (ordered, comparable with `>`) */
export function isCursorType(typname: string): boolean {
  return ['int2', 'int4', 'int8', 'numeric', 'float4', 'float8', 'date', 'timestamp', 'timestamptz', 'text', 'varchar', 'bpchar'].includes(typname);
}

/** cursor types a lookback in days applies to */
export const DATE_CURSOR_TYPES = new Set(['date', 'timestamp', 'timestamptz']);

// OIDs node-pg parses into JS values we keep: bool, int2, int4, float4, float8, json, jsonb and the
// arrays of LIST_ELEMENTS. Everything else stays PostgreSQL's exact text (int8 and numeric digits,
// microsecond timestamps in UTC, dates without a local-midnight Date), which DuckDB casts on load.
const PARSED_OIDS = new Set([16, 21, 23, 700, 701, 114, 3802, 1000, 1005, 1007, 1016, 1021, 1022, 1009, 1015, 1014, 2951]);
const asText = (v: string) => v;

// the driver is loaded on first connect, not at start-up (it costs ~100 ms of module loading)
let driver: typeof pg | null = null;
export async function loadPg(): Promise<typeof pg> {
  driver ??= (await import('pg')).default;
  return driver;
}

export const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    // only called on a live connection, so loadPg() has run
    if (PARSED_OIDS.has(oid)) return driver!.types.getTypeParser(oid, format ?? 'text');
    return asText;
  },
};
