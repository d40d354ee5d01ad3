/**
 * The SQL list of a swap's `forget` values (ResourceSwap.forget): numbers as they are (file ids,
 * BIGINT), strings through the engine's literal quoting.
 */
export function forgetList(values: Array<string | number>, quote: (s: string) => string): string {
  return values.map((v) => (typeof v === 'number' ? String(v) : quote(v))).join(', ');
}
