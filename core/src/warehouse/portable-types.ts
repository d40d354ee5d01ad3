// Column types carried between engines (migrations, staged CSV loads): each backend maps its own
// spelling to this small portable set and back, so a DuckDB VARCHAR becomes PostgreSQL text and a
// DuckDB TIMESTAMP WITH TIME ZONE becomes timestamptz without either backend knowing the other.

export type PortableType =
  | 'boolean'
  | 'smallint'
  | 'integer'
  | 'bigint'
  | 'hugeint'
  | 'real'
  | 'double'
  | `decimal(${number},${number})`
  | 'date'
  | 'time'
  | 'timestamp'
  | 'timestamptz'
  | 'interval'
  | 'uuid'
  | 'json'
  | 'blob'
  | 'text';

/**
 * The portable type of an engine's type name (DuckDB, PostgreSQL and Trino spellings). Nested types
 * (lists, structs, maps, arrays) travel as JSON text; anything unknown as text.
 */
export function toPortableType(engineType: string): PortableType {
  const t = engineType.trim().toLowerCase();
  if (/\[\]$|^(struct|map|union|list|array|row)\b|\(.*\)\[/.test(t)) return 'json';
  const dec = /^(decimal|numeric)\s*\(\s*(\d+)\s*,\s*(\d+)\s*\)$/.exec(t);
  if (dec) return `decimal(${Number(dec[2])},${Number(dec[3])})`;
  if (t === 'decimal' || t === 'numeric') return 'decimal(38,10)';
  if (/^(boolean|bool)$/.test(t)) return 'boolean';
  if (/^(tinyint|smallint|int2|utinyint|int1)$/.test(t)) return 'smallint';
  if (/^(integer|int|int4|usmallint|signed)$/.test(t)) return 'integer';
  if (/^(bigint|int8|uinteger|long)$/.test(t)) return 'bigint';
  if (/^(hugeint|ubigint|uhugeint|int128)$/.test(t)) return 'hugeint';
  if (/^(real|float4|float)$/.test(t)) return 'real';
  if (/^(double|double precision|float8)$/.test(t)) return 'double';
  if (t === 'date') return 'date';
  if (/^time( without time zone)?(\(\d+\))?$/.test(t)) return 'time';
  if (/^(timestamp with time zone|timestamptz|timestamp\(\d+\) with time zone)$/.test(t)) return 'timestamptz';
  if (/^(timestamp|datetime|timestamp without time zone|timestamp_(s|ms|ns)|timestamp\(\d+\)( without time zone)?)$/.test(t)) return 'timestamp';
  if (t === 'interval') return 'interval';
  if (t === 'uuid') return 'uuid';
  if (/^jsonb?$/.test(t)) return 'json';
  if (/^(blob|bytea|varbinary|binary)$/.test(t)) return 'blob';
  return 'text';
}
