import {
  arrayFromArrayValue,
  arrayFromListValue,
  booleanFromValue,
  createDuckDBValueConverter,
  DuckDBBlobValue,
  DuckDBDecimalValue,
  DuckDBTypeId,
  fromVariantValue,
  jsonNumberFromValue,
  jsonObjectFromIntervalValue,
  nullConverter,
  numberFromValue,
  objectArrayFromMapValue,
  objectFromStructValue,
  objectFromUnionValue,
  stringFromValue,
  unsupportedConverter,
  type DuckDBValue,
  type DuckDBValueConverter,
  type Json,
} from '@duckdb/node-api';

/**
 * DuckDB values → JSON values for query responses. The rule: a value is a JSON number when that is
 * exact, otherwise a string. So integers (BIGINT, HUGEINT, ...) are numbers within ±(2^53-1) and strings
 * beyond; DECIMALs are numbers up to 15 significant digits and exact strings beyond; NaN/Infinity
 * are strings. Timestamps are ISO 8601 (`T`; `Z` for TIMESTAMP WITH TIME ZONE and for TIMESTAMP, which
 * Basin stores as UTC), dates `YYYY-MM-DD`, blobs base64, intervals `{months, days, micros}` (micros as
 * a string), lists/arrays arrays, structs objects, maps `[{key, value}]`, unions `{tag, value}`.
 */

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);
const DECIMAL_EXACT_LIMIT = 10n ** 15n;

function integerFromValue(value: DuckDBValue): Json {
  if (typeof value !== 'bigint') return Number(value);
  return value <= MAX_SAFE && value >= -MAX_SAFE ? Number(value) : value.toString();
}

function decimalFromValue(value: DuckDBValue): Json {
  if (!(value instanceof DuckDBDecimalValue)) return String(value);
  const abs = value.value < 0n ? -value.value : value.value;
  return abs < DECIMAL_EXACT_LIMIT ? Number(value.toString()) : value.toString();
}

/** DuckDB prints `2024-01-02 03:04:05.123456` (and `+00` for TIMESTAMPTZ in UTC); make it ISO 8601 UTC. */
function timestampFromValue(value: DuckDBValue): Json {
  const s = String(value);
  const m = /^(-?\d{4,}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2}(?:\.\d+)?)(?:([+-]\d{2})(?::?(\d{2}))?)?$/.exec(s);
  if (!m) return s; // infinity, -infinity
  const offset = m[3] && (m[3] !== '+00' || (m[4] && m[4] !== '00')) ? `${m[3]}:${m[4] ?? '00'}` : 'Z';
  return `${m[1]}T${m[2]}${offset}`;
}

function base64FromBlob(value: DuckDBValue): Json {
  return value instanceof DuckDBBlobValue ? Buffer.from(value.bytes).toString('base64') : String(value);
}

export const queryValueConverter: DuckDBValueConverter<Json> = createDuckDBValueConverter<Json>({
  [DuckDBTypeId.INVALID]: unsupportedConverter,
  [DuckDBTypeId.BOOLEAN]: booleanFromValue,
  [DuckDBTypeId.TINYINT]: numberFromValue,
  [DuckDBTypeId.SMALLINT]: numberFromValue,
  [DuckDBTypeId.INTEGER]: numberFromValue,
  [DuckDBTypeId.BIGINT]: integerFromValue,
  [DuckDBTypeId.UTINYINT]: numberFromValue,
  [DuckDBTypeId.USMALLINT]: numberFromValue,
  [DuckDBTypeId.UINTEGER]: numberFromValue,
  [DuckDBTypeId.UBIGINT]: integerFromValue,
  [DuckDBTypeId.FLOAT]: jsonNumberFromValue,
  [DuckDBTypeId.DOUBLE]: jsonNumberFromValue,
  [DuckDBTypeId.TIMESTAMP]: timestampFromValue,
  [DuckDBTypeId.DATE]: stringFromValue,
  [DuckDBTypeId.TIME]: stringFromValue,
  [DuckDBTypeId.INTERVAL]: jsonObjectFromIntervalValue,
  [DuckDBTypeId.HUGEINT]: integerFromValue,
  [DuckDBTypeId.UHUGEINT]: integerFromValue,
  [DuckDBTypeId.VARCHAR]: stringFromValue,
  [DuckDBTypeId.BLOB]: base64FromBlob,
  [DuckDBTypeId.DECIMAL]: decimalFromValue,
  [DuckDBTypeId.TIMESTAMP_S]: timestampFromValue,
  [DuckDBTypeId.TIMESTAMP_MS]: timestampFromValue,
  [DuckDBTypeId.TIMESTAMP_NS]: timestampFromValue,
  [DuckDBTypeId.ENUM]: stringFromValue,
  [DuckDBTypeId.LIST]: arrayFromListValue,
  [DuckDBTypeId.STRUCT]: objectFromStructValue,
  [DuckDBTypeId.MAP]: objectArrayFromMapValue as DuckDBValueConverter<Json>,
  [DuckDBTypeId.ARRAY]: arrayFromArrayValue,
  [DuckDBTypeId.UUID]: stringFromValue,
  [DuckDBTypeId.UNION]: objectFromUnionValue as DuckDBValueConverter<Json>,
  [DuckDBTypeId.BIT]: stringFromValue,
  [DuckDBTypeId.TIME_TZ]: stringFromValue,
  [DuckDBTypeId.TIMESTAMP_TZ]: timestampFromValue,
  [DuckDBTypeId.ANY]: unsupportedConverter,
  [DuckDBTypeId.BIGNUM]: integerFromValue,
  [DuckDBTypeId.SQLNULL]: nullConverter,
  [DuckDBTypeId.STRING_LITERAL]: unsupportedConverter,
  [DuckDBTypeId.INTEGER_LITERAL]: unsupportedConverter,
  [DuckDBTypeId.TIME_NS]: stringFromValue,
  [DuckDBTypeId.GEOMETRY]: stringFromValue,
  [DuckDBTypeId.VARIANT]: fromVariantValue,
});
