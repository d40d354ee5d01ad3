const MAX_DEPTH = 3;

/**
 * The one way vendor sources shape nested JSON (docs/sdk.md "Nested objects"): a nested object's
 * fields become columns named `parent__child` (up to three levels; deeper objects stay JSON text),
 * arrays stay JSON text in one column, empty objects add no column. So a table has scalar columns
 * only, a field appearing inside an object later becomes a new column, and lists can be opened
 * in SQL with `json_extract` / `from_json`.
 */
export function flattenRecord(record: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  flattenInto(out, record, '', 0);
  return out;
}

function flattenInto(out: Record<string, unknown>, obj: Record<string, unknown>, prefix: string, depth: number): void {
  for (const key of Object.keys(obj)) {
    const v = obj[key];
    const name = prefix ? `${prefix}__${key}` : key;
    if (v === null || v === undefined) out[name] = null;
    else if (Array.isArray(v)) out[name] = JSON.stringify(v);
    else if (typeof v === 'object' && !(v instanceof Date)) {
      const inner = v as Record<string, unknown>;
      if (depth + 1 >= MAX_DEPTH) out[name] = JSON.stringify(inner);
      else flattenInto(out, inner, name, depth + 1);
    } else out[name] = v;
  }
}

/**
 * `flattenRecord` for the runtime's own records (parsed from a response, or made by a `map`): a
 * plain record that is already flat (no nested object, array, Date or undefined) is returned as
 * it is rather than copied; most API records are, and the copy of every record was a measurable
 * part of a sync (issue 16).
 */
export function flattened(record: Record<string, unknown>): Record<string, unknown> {
  const proto = Object.getPrototypeOf(record);
  if (proto !== Object.prototype && proto !== null) return flattenRecord(record);
  for (const key in record) {
    const v = record[key];
    if (v === undefined || (typeof v === 'object' && v !== null)) return flattenRecord(record);
  }
  return record;
}
