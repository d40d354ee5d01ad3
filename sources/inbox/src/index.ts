import fs from 'node:fs';
import path from 'node:path';
import { defineSource, SourceError, type ConfigProblem, type ResourceSpec } from '@basin/sdk';
import { connect, describeError, disconnect, where } from './client.js';
import { InboxConfig } from './config.js';
import { ATTACHMENT_COLUMNS, MESSAGE_COLUMNS, readFolder, type FolderState, type InboxState, type Scratch } from './read.js';

const FIXED = ['messages', 'attachments'];

/** The tables a config produces: messages, attachments, and one per data attachment destination. */
function specs(cfg: InboxConfig): ResourceSpec[] {
  const out: ResourceSpec[] = [
    { name: 'messages', columns: MESSAGE_COLUMNS, primaryKey: ['folder', 'uidvalidity', 'uid'], cursorField: 'uid', writeDisposition: 'merge', description: 'one row per message of the chosen folders' },
    { name: 'attachments', columns: ATTACHMENT_COLUMNS, primaryKey: ['folder', 'uidvalidity', 'uid', 'part'], writeDisposition: 'merge', description: 'every attachment, with the table it loaded into or why not' },
  ];
  if (!cfg.attachments) return out;
  const tables = new Set([...cfg.attachment_tables.map((t) => t.table), 'attachments_csv', 'attachments_json', 'attachments_parquet']);
  // data attachments are appended: a message is read once per UIDVALIDITY, and its rows carry the id of its IMAP URL (_basin_files)
  for (const t of tables) out.push({ name: t, writeDisposition: 'append', description: 'rows of CSV, JSON or Parquet attachments; their _basin_file_id names the message and part in _basin_files' });
  return out;
}

/**
 * IMAP inbox into the warehouse through imapflow: messages of the chosen folders (incremental by UID,
 * per UIDVALIDITY), their attachment list, and CSV/JSON/Parquet attachments loaded as tables by DuckDB.
 */
export default defineSource({
  type: 'inbox',
  title: 'IMAP inbox',
  category: 'productivity',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: InboxConfig,
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  discoverSelects: true,
  validateConfig(cfg) {
    const problems: ConfigProblem[] = [];
    cfg.attachment_tables.forEach((t, i) => {
      if (FIXED.includes(t.table)) problems.push({ path: `/attachment_tables/${i}/table`, message: `"${t.table}" is the name of a table this source fills itself; choose another` });
    });
    return problems;
  },
  async check(ctx) {
    let client;
    try {
      client = await connect(ctx);
      const counts: string[] = [];
      for (const folder of ctx.config.folders) {
        try {
          const s = await client.status(folder, { messages: true });
          counts.push(`${folder} (${s ? (s.messages ?? 0) : '?'} messages)`);
        } catch (e) {
          throw describeError(e, ctx.config, folder);
        }
      }
      return { ok: true, message: `Connected to ${where(ctx.config)} as ${ctx.config.username}; folders to read: ${counts.join(', ')}.` };
    } catch (e) {
      return { ok: false, message: describeError(e, ctx.config).message };
    } finally {
      if (client) await disconnect(client);
    }
  },
  async discover(ctx) {
    return specs(ctx.config);
  },
  async *read(ctx, resources, state) {
    const saved = (ctx.options.fullRefresh ? {} : (state.messages?.folders ?? {})) as InboxState;
    const all: InboxState = structuredClone(saved);
    const wanted = new Set(resources.map((r) => r.name));
    if (!wanted.has('messages')) throw new SourceError('bad_resource', 'an inbox source always loads its messages table; remove the resource selection');
    // attachment and batch files live until the engine has loaded them (after this read ends); the
    // previous read's files are removed here
    const scratch: Scratch = { dir: path.join(ctx.projectDir, '.basin', 'tmp', `inbox-${ctx.name.replace(/[^A-Za-z0-9_-]/g, '_')}`), n: 0 };
    fs.rmSync(scratch.dir, { recursive: true, force: true });
    fs.mkdirSync(scratch.dir, { recursive: true });
    const client = await connect(ctx);
    try {
      for (const folder of ctx.config.folders) {
        const prev = saved[folder] as FolderState | undefined;
        for await (const item of readFolder(client, ctx, folder, prev, all, scratch)) {
          if (item.kind === 'state') yield { kind: 'state', resource: 'messages', state: { folders: item.state } };
          else yield item;
        }
      }
    } catch (e) {
      if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
      throw describeError(e, ctx.config);
    } finally {
      await disconnect(client);
    }
  },
});
