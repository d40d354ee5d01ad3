/** Reads a dotted path (`data.items`, `meta.next_cursor`) from a JSON value. */
export function getPath(value: unknown, path: string): unknown {
  let cur = value;
  for (const key of path.split('.').filter(Boolean)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

const LIST_KEYS = ['data', 'results', 'items', 'records', 'entries', 'rows', 'objects', 'values', 'elements'];

/**
 * The records of a response: `selector` when given; otherwise the body itself if it is an array,
 * a well-known list key (`data`, `results`, `items`…), or the body's only array property. A
 * single object is one record.
 */
export function selectRecords(body: unknown, selector?: string): Record<string, unknown>[] {
  let list: unknown = body;
  if (selector) list = getPath(body, selector);
  else if (body && typeof body === 'object' && !Array.isArray(body)) {
    const obj = body as Record<string, unknown>;
    const key = LIST_KEYS.find((k) => Array.isArray(obj[k])) ?? singleArrayKey(obj);
    list = key ? obj[key] : [obj];
  }
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) list = [list];
  return (list as unknown[]).map((r) => (r && typeof r === 'object' && !Array.isArray(r) ? (r as Record<string, unknown>) : { value: r }));
}

function singleArrayKey(obj: Record<string, unknown>): string | undefined {
  const keys = Object.keys(obj).filter((k) => Array.isArray(obj[k]));
  return keys.length === 1 ? keys[0] : undefined;
}
