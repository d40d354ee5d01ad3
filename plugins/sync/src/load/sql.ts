import { literal } from '@basin/core';

/** a JS value as a DuckDB SQL literal (reader options, column maps) */
export const sqlValue = (v: unknown): string => {
  if (typeof v === 'string') return literal(v);
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `[${v.map(sqlValue).join(', ')}]`;
  if (v && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${literal(k)}: ${sqlValue(x)}`).join(', ')}}`;
  return 'NULL';
};

/** reader option names a source may pass (anything else is dropped, never spliced into SQL) */
export const OPTION_NAME = /^[a-z_]+$/;

// BigInts become JSON number literals (not strings), so DuckDB reads them as exact integers: the replacer
// marks them, then the marks are unquoted. (JSON.stringify escapes a NUL, so the mark is `\u0000` in text.)
const BIG_MARK = '\u0000basin-bigint:';
const bigintMark = (_k: string, v: unknown) => (typeof v === 'bigint' ? `${BIG_MARK}${v}` : v);
const BIG_MARKED = /"\\u0000basin-bigint:(-?\d+)"/g;

/** JSON of one record; the replacer (a per-key callback, half the speed) only for the rare record holding a BigInt */
export function recordJson(rec: unknown): string {
  try {
    return JSON.stringify(rec);
  } catch (e) {
    if (e instanceof TypeError && /BigInt/i.test(e.message)) return JSON.stringify(rec, bigintMark).replace(BIG_MARKED, '$1');
    throw e;
  }
}
