const DELIMS = [',', ';', '\t', '|'];

/**
 * Whether every record of a CSV has as many fields as its header, with quotes closed (RFC 4180
 * quoting, the delimiter picked from the header line the way the loader picks it). Well-formed
 * attachments are loaded together in one DuckDB statement; only the others are read one by one with
 * their broken lines set aside (quarantine), which costs a statement each.
 */
export function csvIsRectangular(bytes: Buffer): boolean {
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  const headerEnd = text.search(/\r?\n/);
  const header = headerEnd >= 0 ? text.slice(0, headerEnd) : text;
  const counts = new Map<string, number>(DELIMS.map((d) => [d, 0]));
  let q = false;
  for (const ch of header) {
    if (ch === '"') q = !q;
    else if (!q && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let delim = ',';
  let max = 0;
  for (const [d, n] of counts) if (n > max) [delim, max] = [d, n];
  let expected = -1;
  let fields = 1;
  let quoted = false;
  let empty = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      }
      continue;
    }
    if (ch === '"') {
      quoted = true;
      empty = false;
    } else if (ch === delim) {
      fields++;
      empty = false;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (!empty) {
        if (expected < 0) expected = fields;
        else if (fields !== expected) return false;
      }
      fields = 1;
      empty = true;
    } else empty = false;
  }
  if (quoted) return false;
  if (!empty && expected >= 0 && fields !== expected) return false;
  return true;
}
