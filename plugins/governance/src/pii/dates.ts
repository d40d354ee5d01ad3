/**
 * Dates of birth by value: a calendar date (ISO, `15.06.1972`, `15/06/1972`, `1972/06/15`, with an
 * optional time) of a person alive and at least 5 years old. Only asked when the column's name says
 * birth: a date column alone (orders, hires) is not personal.
 */
const PATTERNS: Array<[RegExp, (m: RegExpExecArray) => [number, number, number]]> = [
  [/^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/, (m) => [+m[1]!, +m[2]!, +m[3]!]],
  [/^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$/, (m) => (+m[2]! > 12 ? [+m[3]!, +m[1]!, +m[2]!] : [+m[3]!, +m[2]!, +m[1]!])],
];

export function isBirthDate(v: string, today: Date = new Date()): boolean {
  for (const [re, parts] of PATTERNS) {
    const m = re.exec(v.trim());
    if (!m) continue;
    const [y, mo, d] = parts(m);
    if (mo < 1 || mo > 12 || d < 1 || d > 31) return false;
    const year = today.getUTCFullYear();
    return y >= year - 120 && y <= year - 5;
  }
  return false;
}
