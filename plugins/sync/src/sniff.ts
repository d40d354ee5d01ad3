import fs from 'node:fs';

export type UploadFormat = 'csv' | 'json' | 'jsonl' | 'parquet';

const EXT: Record<string, UploadFormat> = { '.csv': 'csv', '.json': 'json', '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.parquet': 'parquet' };

export function formatFromName(name: string): UploadFormat | null {
  const m = /\.[A-Za-z0-9]+$/.exec(name);
  return m ? (EXT[m[0].toLowerCase()] ?? null) : null;
}

function readHead(file: string, n: number, fromEnd = false): Buffer {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const len = Math.min(n, size);
    const buf = Buffer.alloc(len);
    fs.readSync(fd, buf, 0, len, fromEnd ? size - len : 0);
    return buf;
  } finally {
    fs.closeSync(fd);
  }
}

const isText = (buf: Buffer): boolean => {
  if (buf.includes(0)) return false;
  // cut a possibly split multi-byte character at the end before the strict decode
  let end = buf.length;
  while (end > 0 && end > buf.length - 4 && (buf[end - 1]! & 0xc0) === 0x80) end--;
  if (end > 0 && buf[end - 1]! >= 0xc0) end--;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(buf.subarray(0, end));
    return true;
  } catch {
    return false;
  }
};

/**
 * Checks that a file's content is what its extension says (an upload named .csv that is a zip, an
 * executable or Parquet is refused). Returns null when it matches, else the reason.
 */
export function checkContent(file: string, format: UploadFormat): string | null {
  const size = fs.statSync(file).size;
  if (size === 0) return null; // an empty file is accepted; its sync reports status "empty"
  const head = readHead(file, 65536);
  if (format === 'parquet') {
    const tail = readHead(file, 4, true);
    return size >= 12 && head.subarray(0, 4).toString('latin1') === 'PAR1' && tail.toString('latin1') === 'PAR1' ? null : 'it does not start and end with the Parquet magic bytes "PAR1"';
  }
  if (!isText(head)) return 'it is not UTF-8 text';
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  const first = text.trimStart()[0];
  if (format === 'json') return first === '[' || first === '{' ? null : 'JSON must start with "[" or "{"';
  if (format === 'jsonl') {
    const line = text.split(/\r?\n/).find((l) => l.trim());
    if (!line) return null;
    if (text.length === head.length && !text.includes('\n') && size > head.length) return 'its first line is longer than 64 KB';
    try {
      const v = JSON.parse(line);
      return v && typeof v === 'object' ? null : 'each JSON Lines line must be a JSON object';
    } catch {
      return 'its first line is not valid JSON';
    }
  }
  // csv: text whose first line is a header
  if (first === '{' || first === '[') return 'it looks like JSON, not CSV';
  return null;
}
