import fs from 'node:fs/promises';

export type FileFormat = 'csv' | 'json' | 'parquet';

const EXTENSIONS: Record<string, FileFormat> = {
  csv: 'csv',
  tsv: 'csv',
  json: 'json',
  jsonl: 'json',
  ndjson: 'json',
  parquet: 'parquet',
  pq: 'parquet',
};
const COMPRESSIONS = new Set(['gz', 'zst']);

/** The format a file's name announces (`.csv`, `.jsonl.gz`, `.parquet`...), or null. */
export function formatFromName(name: string): FileFormat | null {
  const parts = name.toLowerCase().split('.');
  if (parts.length < 2) return null;
  let ext = parts.pop()!;
  if (COMPRESSIONS.has(ext)) {
    if (parts.length < 2) return null;
    ext = parts.pop()!;
  }
  return EXTENSIONS[ext] ?? null;
}

export function isCompressedName(name: string): boolean {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return COMPRESSIONS.has(ext);
}

/** What the first bytes of a file look like. `binary` = not text and not a known format. */
export type SniffedKind = FileFormat | 'binary' | 'empty';

const PARQUET_MAGIC = Buffer.from('PAR1');

/** Classifies content by its first bytes: Parquet magic, a JSON document or lines, text (CSV) or binary. */
export function sniffBytes(head: Buffer): SniffedKind {
  if (head.length === 0) return 'empty';
  if (head.length >= 4 && head.subarray(0, 4).equals(PARQUET_MAGIC)) return 'parquet';
  let start = 0;
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) start = 3; // UTF-8 BOM
  const limit = Math.min(head.length, 8192);
  for (let i = start; i < limit; i++) {
    const b = head[i]!;
    if (b === 0) return 'binary';
  }
  for (let i = start; i < limit; i++) {
    const b = head[i]!;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x7b /* { */ || b === 0x5b /* [ */ ? 'json' : 'csv';
  }
  return 'empty';
}

/** Reads the first bytes of a file and classifies them (gzip/zstd content is not sniffed). */
export async function sniffFile(file: string): Promise<SniffedKind> {
  const fh = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(8192);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return sniffBytes(buf.subarray(0, bytesRead));
  } finally {
    await fh.close();
  }
}

export interface DetectedFormat {
  format: FileFormat | null;
  /** why a file is skipped or refused */
  problem?: string;
  /** true when the content contradicts the extension: the file cannot be loaded as named */
  mismatch?: boolean;
  empty?: boolean;
}

/**
 * The format of a file from its extension AND its content. A known extension whose content
 * contradicts it is a mismatch (the sync fails naming the file); an unknown extension is
 * accepted only when the content is clearly Parquet or JSON.
 */
export async function detectFormat(file: string, size: number): Promise<DetectedFormat> {
  const byName = formatFromName(file);
  if (size === 0) return { format: byName, empty: true };
  if (isCompressedName(file)) return byName ? { format: byName } : { format: null, problem: 'compressed file of an unknown format' };
  const kind = await sniffFile(file);
  if (kind === 'empty') return { format: byName, empty: true };
  if (byName) {
    if (byName === kind) return { format: byName };
    // a CSV whose first cell starts with `[` or `{` is still text: accept it as CSV
    if (byName === 'csv' && kind === 'json') return { format: 'csv' };
    return { format: null, mismatch: true, problem: `its name says ${byName.toUpperCase()} but its content looks like ${kind === 'binary' ? 'binary data' : kind.toUpperCase()}` };
  }
  if (kind === 'parquet' || kind === 'json') return { format: kind };
  return { format: null, problem: kind === 'binary' ? 'binary file of an unknown format' : 'not a CSV, JSON, JSONL/NDJSON or Parquet file name' };
}
