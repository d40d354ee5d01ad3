import fs from 'node:fs';
import path from 'node:path';
import { sniffBytes, type ColumnSpec, type FileFormat, type ReadItem, type SourceContext } from '@basin/sdk';
import type { FetchMessageObject, ImapFlow, MessageAddressObject, SearchObject } from 'imapflow';
import { describeError } from './client.js';
import { csvIsRectangular } from './csv-shape.js';
import { portOf, type InboxConfig } from './config.js';
import { bodyText, decodeTransfer, globMatch, partsOf, toUtf8, type AttachmentPart, type TextPart } from './mime.js';

/** The columns of `messages`: one row per message, keyed by (folder, uidvalidity, uid). */
export const MESSAGE_COLUMNS: ColumnSpec[] = [
  { name: 'folder', type: 'VARCHAR', nullable: false },
  { name: 'uidvalidity', type: 'BIGINT', nullable: false },
  { name: 'uid', type: 'BIGINT', nullable: false },
  { name: 'message_id', type: 'VARCHAR' },
  { name: 'in_reply_to', type: 'VARCHAR' },
  { name: 'subject', type: 'VARCHAR' },
  { name: 'from_address', type: 'VARCHAR' },
  { name: 'from_name', type: 'VARCHAR' },
  { name: 'to', type: 'JSON' },
  { name: 'cc', type: 'JSON' },
  { name: 'sent_at', type: 'TIMESTAMPTZ' },
  { name: 'received_at', type: 'TIMESTAMPTZ' },
  { name: 'size', type: 'BIGINT' },
  { name: 'flags', type: 'JSON' },
  { name: 'seen', type: 'BOOLEAN' },
  { name: 'attachment_count', type: 'INTEGER' },
  { name: 'body_text', type: 'VARCHAR' },
  { name: 'body_truncated', type: 'BOOLEAN' },
];

/** The columns of `attachments`: every attachment of the messages read, loaded or not. */
export const ATTACHMENT_COLUMNS: ColumnSpec[] = [
  { name: 'folder', type: 'VARCHAR', nullable: false },
  { name: 'uidvalidity', type: 'BIGINT', nullable: false },
  { name: 'uid', type: 'BIGINT', nullable: false },
  { name: 'part', type: 'VARCHAR', nullable: false },
  { name: 'message_id', type: 'VARCHAR' },
  { name: 'filename', type: 'VARCHAR' },
  { name: 'content_type', type: 'VARCHAR' },
  { name: 'size', type: 'BIGINT' },
  { name: 'loaded_into', type: 'VARCHAR' },
  { name: 'skipped_reason', type: 'VARCHAR' },
  { name: 'source_file', type: 'VARCHAR' },
];

const columnMap = (cols: ColumnSpec[]) => Object.fromEntries(cols.map((c) => [c.name, c.type]));

/**
 * What is saved per folder, committed with the rows: the UIDVALIDITY the UIDs belong to, the highest
 * UID read, and per table the source files (IMAP URLs) of the rows loaded from it, so a UIDVALIDITY
 * change can drop exactly those rows: one entry per read that found new messages, plus one per
 * loaded data attachment.
 */
export interface FolderState {
  uidvalidity: number;
  last_uid: number;
  files: Record<string, string[]>;
}
export type InboxState = Record<string, FolderState>;

/** Per-read scratch: the folder of attachment and batch files DuckDB reads after the read ends. */
export interface Scratch {
  dir: string;
  n: number;
}

/** The table a data attachment loads into: the first matching `attachment_tables` entry, else attachments_<format>. */
export function tableFor(cfg: InboxConfig, a: AttachmentPart): string | null {
  const routed = cfg.attachment_tables.find((t) => globMatch(t.filename, a.filename));
  if (routed) return a.format ? routed.table : null;
  return a.format ? `attachments_${a.format}` : null;
}

/** The mailbox as an IMAP URL (RFC 5092), the stem of the source-file name of every attachment (`_basin_files.source_file`). */
export function mailboxUrl(cfg: InboxConfig, folder: string, uidvalidity: number): string {
  return `imap://${encodeURIComponent(cfg.username)}@${cfg.host}:${portOf(cfg)}/${encodeURIComponent(folder)};UIDVALIDITY=${uidvalidity}`;
}

const addresses = (list: MessageAddressObject[] | undefined) => (list?.length ? list.map((a) => ({ name: a.name || null, address: a.address || null })) : null);
const isoDate = (d: Date | string | undefined) => {
  if (!d) return null;
  const t = d instanceof Date ? d : new Date(d);
  return Number.isNaN(t.getTime()) ? null : t.toISOString();
};

function writeNdjson(scratch: Scratch, prefix: string, rows: Record<string, unknown>[]): string {
  const file = path.join(scratch.dir, `${prefix}-${scratch.n++}.ndjson`);
  fs.writeFileSync(file, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return file;
}

/** Why a downloaded data attachment cannot load as its format, or null when it looks right. */
function unloadable(bytes: Buffer, format: FileFormat, filename: string): string | null {
  if (!bytes.length) return 'empty';
  if (/\.(gz|zst)$/i.test(filename)) return null;
  if (format === 'parquet') {
    const magic = Buffer.from('PAR1');
    return bytes.subarray(0, 4).equals(magic) && bytes.subarray(-4).equals(magic) ? null : 'not a Parquet file (no PAR1 magic)';
  }
  if (sniffBytes(bytes) === 'binary') return `binary content, not ${format.toUpperCase()}`;
  if (format === 'json') {
    const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
    try {
      JSON.parse(text);
    } catch {
      // newline-delimited JSON: every non-empty line a document
      try {
        for (const line of text.split('\n')) if (line.trim()) JSON.parse(line);
      } catch (e) {
        return `not valid JSON (${(e as Error).message})`;
      }
    }
  }
  return null;
}

/** attachments up to this encoded size are fetched together, one FETCH per part number and batch */
const GROUPED_MAX_BYTES = 1_048_576;

/**
 * The decoded bytes of a batch's data attachments, keyed `uid:part` (null: the server did not return
 * it; 'too_large': over max_attachment_bytes). Small ones come in one FETCH per part number for the
 * whole batch (most are part 2; 15 times faster than one download each); bigger ones are downloaded
 * one by one, streamed up to the limit.
 */
async function attachmentBytes(client: ImapFlow, cfg: InboxConfig, wanted: Array<{ uid: number; a: AttachmentPart }>): Promise<Map<string, Buffer | 'too_large' | null>> {
  const out = new Map<string, Buffer | 'too_large' | null>();
  const byPart = new Map<string, Array<{ uid: number; a: AttachmentPart }>>();
  for (const w of wanted) {
    if (w.a.size <= GROUPED_MAX_BYTES) byPart.set(w.a.part, [...(byPart.get(w.a.part) ?? []), w]);
    else {
      try {
        const d = await client.download(String(w.uid), w.a.part, { uid: true, maxBytes: cfg.max_attachment_bytes + 1 });
        if (!d.content) out.set(`${w.uid}:${w.a.part}`, null);
        else {
          const chunks: Buffer[] = [];
          for await (const c of d.content) chunks.push(c as Buffer);
          const bytes = Buffer.concat(chunks);
          out.set(`${w.uid}:${w.a.part}`, bytes.length > cfg.max_attachment_bytes ? 'too_large' : toUtf8(bytes, w.a.charset));
        }
      } catch (e) {
        if ((e as { code?: string }).code === 'DownloadOverflow') out.set(`${w.uid}:${w.a.part}`, 'too_large');
        else throw e;
      }
    }
  }
  for (const [part, group] of byPart) {
    const byUid = new Map(group.map((w) => [w.uid, w.a]));
    const got = await client.fetchAll(group.map((w) => w.uid).join(','), { uid: true, bodyParts: [part] }, { uid: true });
    for (const m of got) {
      const a = byUid.get(m.uid);
      const raw = m.bodyParts ? [...m.bodyParts.values()][0] : undefined;
      if (!a || !raw) continue;
      const bytes = toUtf8(m.binaryParts?.size ? raw : decodeTransfer(raw, a.encoding), a.charset);
      out.set(`${m.uid}:${part}`, bytes.length > cfg.max_attachment_bytes ? 'too_large' : bytes);
    }
  }
  return out;
}

/** bytes of a text part to ask for: base64 needs 4 for 3, and one more byte tells a cut body from one that fits exactly */
function bodyFetchBytes(cfg: InboxConfig): number {
  return Math.ceil((cfg.max_body_bytes + 1) * 1.4) + 4;
}

/** Body texts of a batch, one FETCH per distinct text part number (most messages share "1" or "1.1"). */
async function bodies(client: ImapFlow, cfg: InboxConfig, texts: Map<number, TextPart>): Promise<Map<number, { text: string; truncated: boolean }>> {
  const out = new Map<number, { text: string; truncated: boolean }>();
  const byPart = new Map<string, number[]>();
  for (const [uid, t] of texts) byPart.set(t.part, [...(byPart.get(t.part) ?? []), uid]);
  const maxLength = bodyFetchBytes(cfg);
  for (const [part, uids] of byPart) {
    const got = await client.fetchAll(uids.join(','), { uid: true, bodyParts: [{ key: part, maxLength }] }, { uid: true });
    for (const m of got) {
      const t = texts.get(m.uid);
      const raw = m.bodyParts ? [...m.bodyParts.values()][0] : undefined;
      if (!t || !raw) continue;
      out.set(m.uid, bodyText(raw, t, !!m.binaryParts?.size, cfg.max_body_bytes, raw.length >= maxLength));
    }
  }
  return out;
}

/**
 * Reads one folder from its saved position: UIDs above the last one read (all of them, or those the
 * filters select, on a first read or when UIDVALIDITY changed), in batches of `batch_size`. Each batch
 * becomes an NDJSON file for `messages` and one for `attachments`, plus one file per data attachment,
 * all read by DuckDB; the folder's state follows each batch, so it is committed with those rows.
 */
export async function* readFolder(client: ImapFlow, ctx: SourceContext<InboxConfig>, folder: string, previous: FolderState | undefined, all: InboxState, scratch: Scratch): AsyncGenerator<ReadItem> {
  const cfg = ctx.config;
  let box;
  try {
    box = await client.mailboxOpen(folder, { readOnly: true });
  } catch (e) {
    throw describeError(e, cfg, folder);
  }
  const uidvalidity = Number(box.uidValidity);
  const url = mailboxUrl(cfg, folder, uidvalidity);
  const changed = !!previous && previous.uidvalidity !== uidvalidity;
  const prev = changed ? undefined : previous;
  const state: FolderState = { uidvalidity, last_uid: prev?.last_uid ?? 0, files: structuredClone(prev?.files ?? {}) };
  if (changed) {
    // the server renumbered the folder: its old UIDs mean nothing now, so its rows are dropped in the
    // same commit and the whole folder is read again
    ctx.log.warn(`${folder}: UIDVALIDITY changed from ${previous.uidvalidity} to ${uidvalidity} (the folder was recreated or rebuilt on the server); its messages are read again and the rows of the old numbering replaced`);
    for (const [table, files] of Object.entries(previous.files ?? {})) if (files.length) yield { kind: 'forget_files', resource: table, sourceFiles: files };
  }
  // UIDNEXT bounds the run; a server that does not report it is read up to its newest message
  const knownTop = Number.isFinite(box.uidNext) && box.uidNext > 0;
  const top = knownTop ? box.uidNext - 1 : Number.MAX_SAFE_INTEGER;
  const from = state.last_uid + 1;
  let uids: number[] = [];
  if (box.exists > 0 && top >= from) {
    const query: SearchObject = { uid: `${from}:${knownTop ? top : '*'}` };
    if (!prev) {
      const since = ctx.options.startDate ?? cfg.start_date;
      if (since) query.since = since;
      if (ctx.options.endDate) query.before = new Date(Date.parse(`${ctx.options.endDate}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    }
    if (cfg.from.length === 1) query.from = cfg.from[0];
    else if (cfg.from.length > 1) query.or = cfg.from.map((f) => ({ from: f }));
    if (cfg.subject) query.subject = cfg.subject;
    try {
      const found = await client.search(query, { uid: true });
      uids = (found || []).filter((u) => u >= from && u <= top).sort((a, b) => a - b);
    } catch (e) {
      throw describeError(e, cfg, folder);
    }
  }
  // the messages and attachments rows of this read carry one IMAP URL naming the folder, its
  // UIDVALIDITY and the UID range read; the state lists these, so a UIDVALIDITY change can drop them
  const range = uids.length ? `${url}/;UID=${uids[0]}:${uids[uids.length - 1]}` : url;
  if (uids.length) for (const t of ['messages', 'attachments']) (state.files[t] ??= []).push(range);
  ctx.log.info(`${folder}: ${uids.length} new message(s) to read${uids.length ? ` (UID ${uids[0]} to ${uids[uids.length - 1]})` : ''}`);
  let read = 0;
  let loadedFiles = 0;
  const wantBody = cfg.body && cfg.max_body_bytes > 0;
  for (let i = 0; i < uids.length; i += cfg.batch_size) {
    if (ctx.signal.aborted) return;
    const batch = uids.slice(i, i + cfg.batch_size);
    let fetched: FetchMessageObject[];
    try {
      fetched = await client.fetchAll(batch.join(','), { uid: true, envelope: true, flags: true, internalDate: true, size: true, bodyStructure: true, ...(wantBody ? { bodyParts: [{ key: '1', maxLength: bodyFetchBytes(cfg) }] } : {}) }, { uid: true });
    } catch (e) {
      throw describeError(e, cfg, folder);
    }
    fetched.sort((a, b) => a.uid - b.uid);
    const parts = new Map(fetched.map((m) => [m.uid, partsOf(m.bodyStructure)]));
    // most texts are part 1 and came with the metadata; the others take one more FETCH per part number
    const body = new Map<number, { text: string; truncated: boolean }>();
    const texts = new Map<number, TextPart>();
    if (wantBody) {
      for (const m of fetched) {
        const t = parts.get(m.uid)!.text;
        const raw = m.bodyParts ? [...m.bodyParts.values()][0] : undefined;
        if (t && t.part === '1' && raw) body.set(m.uid, bodyText(raw, t, !!m.binaryParts?.size, cfg.max_body_bytes, raw.length >= bodyFetchBytes(cfg)));
        else if (t) texts.set(m.uid, t);
      }
    }
    if (texts.size) for (const [uid, b] of await bodies(client, cfg, texts)) body.set(uid, b);
    const messages: Record<string, unknown>[] = [];
    const attachments: Record<string, unknown>[] = [];
    const files: ReadItem[] = [];
    // the data attachments of the batch, fetched together before the rows are built
    const wanted: Array<{ uid: number; a: AttachmentPart }> = [];
    if (cfg.attachments) {
      for (const m of fetched) for (const a of parts.get(m.uid)!.attachments) if (tableFor(cfg, a) && a.size <= cfg.max_attachment_bytes * 1.4) wanted.push({ uid: m.uid, a });
    }
    let got: Map<string, Buffer | 'too_large' | null>;
    try {
      got = wanted.length ? await attachmentBytes(client, cfg, wanted) : new Map();
    } catch (e) {
      throw describeError(e, cfg, folder);
    }
    for (const m of fetched) {
      const env = m.envelope;
      const p = parts.get(m.uid)!;
      const flags = [...(m.flags ?? [])].sort();
      const b = body.get(m.uid);
      messages.push({
        folder,
        uidvalidity,
        uid: m.uid,
        message_id: env?.messageId ?? null,
        in_reply_to: env?.inReplyTo ?? null,
        subject: env?.subject ?? null,
        from_address: env?.from?.[0]?.address ?? null,
        from_name: env?.from?.[0]?.name || null,
        to: addresses(env?.to),
        cc: addresses(env?.cc),
        sent_at: isoDate(env?.date),
        received_at: isoDate(m.internalDate),
        size: m.size ?? null,
        flags,
        seen: flags.includes('\\Seen'),
        attachment_count: p.attachments.length,
        body_text: b?.text ?? null,
        body_truncated: b ? b.truncated : null,
      });
      for (const a of p.attachments) {
        const sourceFile = `${url}/;UID=${m.uid}/;SECTION=${a.part}`;
        const table = cfg.attachments ? tableFor(cfg, a) : null;
        const bytes = got.get(`${m.uid}:${a.part}`);
        let skipped: string | null = null;
        if (!cfg.attachments) skipped = 'attachments: false';
        else if (!table) skipped = 'not CSV, JSON or Parquet';
        else if (a.size > cfg.max_attachment_bytes * 1.4 || bytes === 'too_large') skipped = `larger than max_attachment_bytes (${cfg.max_attachment_bytes})`;
        else if (!bytes) skipped = 'the server did not return this part';
        else skipped = unloadable(bytes, a.format!, a.filename);
        if (table && !skipped && Buffer.isBuffer(bytes)) {
          const file = path.join(scratch.dir, `${scratch.n++}-${a.filename.replace(/[^A-Za-z0-9._-]/g, '_')}`);
          fs.writeFileSync(file, bytes);
          // a CSV from outside may have broken lines: they go to <table>__rejects instead of failing every sync
          // (compressed ones are not looked into, so they take the careful path)
          const broken = a.format === 'csv' && (/\.(gz|zst)$/i.test(a.filename) || !csvIsRectangular(bytes));
          files.push({ kind: 'file', resource: table, path: file, format: a.format!, sourceFile, ...(broken ? { malformedRows: 'quarantine' as const } : {}) });
          (state.files[table] ??= []).push(sourceFile);
        } else if (table && skipped) ctx.log.warn(`${folder} UID ${m.uid}: attachment "${a.filename}" not loaded: ${skipped}`);
        attachments.push({
          folder,
          uidvalidity,
          uid: m.uid,
          part: a.part,
          message_id: env?.messageId ?? null,
          filename: a.filename,
          content_type: a.contentType,
          size: a.size,
          loaded_into: table && !skipped ? table : null,
          skipped_reason: skipped,
          source_file: sourceFile,
        });
      }
    }
    if (messages.length) yield { kind: 'file', resource: 'messages', path: writeNdjson(scratch, 'messages', messages), format: 'json', sourceFile: range, options: { columns: columnMap(MESSAGE_COLUMNS) } };
    if (attachments.length) yield { kind: 'file', resource: 'attachments', path: writeNdjson(scratch, 'attachments', attachments), format: 'json', sourceFile: range, options: { columns: columnMap(ATTACHMENT_COLUMNS) } };
    yield* files;
    loadedFiles += files.length;
    read += fetched.length;
    state.last_uid = Math.max(state.last_uid, batch[batch.length - 1]!);
    all[folder] = state;
    yield { kind: 'state', resource: 'messages', state: structuredClone(all) };
    if (uids.length > cfg.batch_size) ctx.log.info(`${folder}: ${read} of ${uids.length} message(s) read`);
  }
  // everything below uidNext was considered (filtered-out messages too): the next read starts above it
  if (knownTop) state.last_uid = Math.max(state.last_uid, top);
  all[folder] = state;
  yield { kind: 'state', resource: 'messages', state: structuredClone(all) };
  if (loadedFiles) ctx.log.info(`${folder}: ${loadedFiles} data attachment(s) loaded as tables`);
}
