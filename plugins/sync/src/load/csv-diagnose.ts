import fs from 'node:fs';

const DELIMS = [',', ';', '\t', '|'];

/** First line of a file (up to 64 KB), for dialect detection. */
function firstLine(file: string): string {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(65536);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const text = buf.subarray(0, n).toString('utf8').replace(/^\uFEFF/, '');
    const end = text.search(/\r?\n/);
    return end >= 0 ? text.slice(0, end) : text;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The delimiter of a CSV file, from its header line (outside quotes). Basin pins the dialect instead
 * of letting DuckDB's sniffer guess, because the sniffer "repairs" malformed files by skipping rows
 * or reading them as one column, which would silently load wrong data.
 */
export function detectDelimiter(file: string): string {
  const line = firstLine(file);
  const counts = new Map<string, number>(DELIMS.map((d) => [d, 0]));
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && counts.has(ch)) counts.set(ch, counts.get(ch)! + 1);
  }
  let best = ',';
  let max = 0;
  for (const [d, n] of counts) if (n > max) [best, max] = [d, n];
  return best;
}

/**
 * Finds the first malformed record of a CSV file: a record whose field count differs from the header's,
 * or a quote left open at the end. Runs only after DuckDB refused a batch, to name the file and line.
 */
export function findCsvProblem(file: string, delim: string): { line: number; message: string } | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    return { line: 0, message: (e as Error).message };
  }
  let line = 1;
  let recordLine = 1;
  let fields = 1;
  let expected = -1;
  let quoted = false;
  let sawContent = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') i++;
        else quoted = false;
      } else if (ch === '\n') line++;
      continue;
    }
    if (ch === '"') {
      quoted = true;
      sawContent = true;
    } else if (ch === delim) {
      fields++;
      sawContent = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      if (sawContent) {
        if (expected < 0) expected = fields;
        else if (fields !== expected) return { line: recordLine, message: `expected ${expected} fields (as in the header), found ${fields}` };
      }
      line++;
      recordLine = line;
      fields = 1;
      sawContent = false;
    } else sawContent = true;
  }
  if (quoted) return { line: recordLine, message: 'a quoted field is never closed' };
  if (sawContent && expected >= 0 && fields !== expected) return { line: recordLine, message: `expected ${expected} fields (as in the header), found ${fields}` };
  return null;
}
