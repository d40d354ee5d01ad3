import { formatFromName, type FileFormat } from '@basin/sdk';
import type { MessageStructureObject } from 'imapflow';

/** A leaf part of a message worth reading: its body text, or an attachment. */
export interface TextPart {
  part: string;
  type: string;
  encoding: string;
  charset: string;
}
export interface AttachmentPart {
  part: string;
  filename: string;
  contentType: string;
  /** encoded size as the server reports it */
  size: number;
  /** Content-Transfer-Encoding (base64, quoted-printable, 7bit...) */
  encoding: string;
  /** the charset parameter of a text attachment, if any */
  charset: string | null;
  /** the format it loads as, or null when it is not a data file */
  format: FileFormat | null;
}

const DATA_TYPES: Record<string, FileFormat> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'application/json': 'json',
  'application/x-ndjson': 'json',
  'application/ndjson': 'json',
  'application/jsonl': 'json',
  'application/vnd.apache.parquet': 'parquet',
  'application/x-parquet': 'parquet',
  'application/parquet': 'parquet',
};

function leaves(node: MessageStructureObject, out: MessageStructureObject[] = []): MessageStructureObject[] {
  // an attached message (message/rfc822) is one attachment, not opened up
  if (node.childNodes?.length && !/^message\/rfc822$/i.test(node.type)) for (const c of node.childNodes) leaves(c, out);
  else out.push(node);
  return out;
}

function filenameOf(n: MessageStructureObject): string | null {
  const name = n.dispositionParameters?.filename ?? n.parameters?.name;
  return name ? name.replace(/[\\/]/g, '_').trim() || null : null;
}

/** The body text part (text/plain first, else text/html) and the attachments of a message's structure. */
export function partsOf(structure: MessageStructureObject | undefined): { text: TextPart | null; attachments: AttachmentPart[] } {
  if (!structure) return { text: null, attachments: [] };
  let plain: TextPart | null = null;
  let html: TextPart | null = null;
  const attachments: AttachmentPart[] = [];
  for (const n of leaves(structure)) {
    const type = n.type.toLowerCase();
    const filename = filenameOf(n);
    const disposition = n.disposition?.toLowerCase();
    // a single-part message has no part number; its body is section 1
    const part = n.part ?? '1';
    const textual = type === 'text/plain' || type === 'text/html';
    if (disposition === 'attachment' || (filename !== null && !textual) || type === 'message/rfc822') {
      const name = filename ?? `part-${part}`;
      attachments.push({ part, filename: name, contentType: type, size: n.size ?? 0, encoding: (n.encoding ?? '7bit').toLowerCase(), charset: n.parameters?.charset ?? null, format: formatFromName(name) ?? DATA_TYPES[type] ?? null });
      continue;
    }
    if (!textual) continue;
    const t = { part, type, encoding: (n.encoding ?? '7bit').toLowerCase(), charset: n.parameters?.charset ?? 'utf-8' };
    if (type === 'text/plain' && !plain) plain = t;
    else if (type === 'text/html' && !html) html = t;
  }
  return { text: plain ?? html, attachments };
}

function decodeQuotedPrintable(s: string): Buffer {
  const out: number[] = [];
  const text = s.replace(/=\r?\n/g, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      out.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const code = text.charCodeAt(i);
      if (code < 0x80) out.push(code);
      else out.push(...Buffer.from(c, 'latin1'));
    }
  }
  return Buffer.from(out);
}

function charsetDecoder(charset: string): TextDecoder {
  try {
    return new TextDecoder(charset.toLowerCase());
  } catch {
    return new TextDecoder('utf-8');
  }
}

/** A part's bytes without their Content-Transfer-Encoding (base64, quoted-printable; others are as sent). */
export function decodeTransfer(raw: Buffer, encoding: string): Buffer {
  if (encoding === 'base64') return Buffer.from(raw.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(raw.toString('latin1'));
  return raw;
}

/** Text in another charset than UTF-8 (or ASCII) re-encoded as UTF-8, which DuckDB's readers expect. */
export function toUtf8(bytes: Buffer, charset: string | null): Buffer {
  if (!charset || /^(utf-?8|us-ascii|ascii)$/i.test(charset)) return bytes;
  return Buffer.from(charsetDecoder(charset).decode(bytes), 'utf8');
}

/**
 * Body text from the bytes the server sent (`cut`: it had more than was asked for): transfer decoding
 * (unless the server did it), charset, HTML tags stripped; then at most maxBytes of UTF-8 text.
 */
export function bodyText(raw: Buffer, part: TextPart, decoded: boolean, maxBytes: number, cut = false): { text: string; truncated: boolean } {
  const bytes = decoded ? raw : decodeTransfer(raw, part.encoding);
  let text = charsetDecoder(part.charset).decode(bytes);
  if (cut) text = text.replace(/\uFFFD+$/, '');
  if (part.type === 'text/html') {
    text = text
      .replace(/<(script|style)[\s\S]*?(<\/\1>|$)/gi, '')
      .replace(/<br\s*\/?>|<\/p>/gi, '\n')
      .replace(/<[^>]*(>|$)/g, '')
      .replace(/&nbsp;/g, ' ')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  }
  let truncated = cut;
  if (Buffer.byteLength(text) > maxBytes) {
    text = Buffer.from(text).subarray(0, maxBytes).toString('utf8').replace(/\uFFFD+$/, '');
    truncated = true;
  }
  text = text.replace(/\s+$/, '');
  return { text, truncated };
}

/** Case-insensitive glob (`*`, `?`) on a file name. */
export function globMatch(glob: string, name: string): boolean {
  const re = new RegExp(`^${glob.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`, 'i');
  return re.test(name);
}
