import fs from 'node:fs';
import path from 'node:path';
import { ManualClock, type BasinApp } from '@basin/core';
import sourcesPlugin, { loadSourceRegistry } from '@basin/plugin-sources';
import { declareSource, defineSource, SourceError, Type, type ReadItem } from '@basin/sdk';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import syncPlugin, { type SyncEngineImpl } from '../src/index.js';

/**
 * Test-only source types, registered once per process:
 * - test_records: `batches` batches of `rows` records (id, name, amount, ts), optional fail/hang/token;
 * - test_files: an incremental file source like local_files (tracks path, size, mtime in its state).
 */
export const testRecords = defineSource({
  type: 'test_records',
  category: 'api',
  authKind: 'apiKey',
  wizard: true,
  configSchema: Type.Object(
    {
      rows: Type.Integer({ default: 3 }),
      batches: Type.Integer({ default: 1 }),
      fail_at_batch: Type.Optional(Type.Integer()),
      hang_at_batch: Type.Optional(Type.Integer()),
      token_env: Type.Optional(Type.String()),
      extra_column: Type.Boolean({ default: false }),
      amount_as_text: Type.Boolean({ default: false }),
      big_ids: Type.Boolean({ default: false }),
      disposition: Type.Union([Type.Literal('append'), Type.Literal('replace'), Type.Literal('merge')], { default: 'append' }),
      api_key: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false },
  async check() {
    return { ok: true };
  },
  async discover(ctx) {
    const c = ctx.config as any;
    return [{ name: 'items', writeDisposition: c.disposition, primaryKey: ['id'] }];
  },
  async *read(ctx, _resources, state) {
    const c = ctx.config as any;
    if (c.token_env) {
      const token = ctx.secret(c.token_env);
      if (token === 'bad-token-123') throw new SourceError('unauthorized', `API answered 401 for token ${token}; check ${c.token_env}`);
    }
    let next = Number((state.items as any)?.next_id ?? 1);
    for (let b = 0; b < c.batches; b++) {
      if (c.fail_at_batch === b) throw new SourceError('upstream_error', `API answered 503 at batch ${b}: {"error":"down"}`);
      // an abort before this point has fired already: its event would never come
      if (c.hang_at_batch === b) await new Promise<void>((resolve) => (ctx.signal.aborted ? resolve() : ctx.signal.addEventListener('abort', () => resolve(), { once: true })));
      const records = [];
      for (let i = 0; i < c.rows; i++, next++) {
        const r: Record<string, unknown> = { id: c.big_ids && i % 2 ? 2n ** 60n + BigInt(next) : next, name: `item ${next}`, amount: c.amount_as_text ? `n${next}` : next * 1.5, ts: '2026-01-02T03:04:05Z' };
        if (c.extra_column) r.extra = `x${next}`;
        records.push(r);
      }
      if (records.length) yield { kind: 'records', resource: 'items', records } as ReadItem;
      yield { kind: 'state', resource: 'items', state: { next_id: next } } as ReadItem;
    }
    ctx.log.info(`read done; options ${JSON.stringify(ctx.options)}`);
  },
});

export const testFiles = defineSource({
  type: 'test_files',
  category: 'files',
  authKind: 'none',
  wizard: true,
  configSchema: Type.Object({ directory: Type.String(), file_pattern: Type.String({ default: '*' }) }, { additionalProperties: false }),
  capabilities: { incremental: true, dateRange: false, customQueries: false },
  async check() {
    return { ok: true };
  },
  async discover() {
    return [{ name: 'data', writeDisposition: 'append' }];
  },
  async *read(ctx, _resources, state) {
    const dir = path.resolve(ctx.projectDir, (ctx.config as any).directory);
    const known = ((state.data as any)?.files ?? {}) as Record<string, string>;
    const now: Record<string, string> = {};
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.(csv|json|jsonl|ndjson|parquet)$/.test(f)).sort() : [];
    const forget: string[] = [];
    for (const f of files) {
      const p = path.join(dir, f);
      const st = fs.statSync(p);
      const sig = `${st.size}:${st.mtimeMs}`;
      now[p] = sig;
      if (known[p] === sig) continue;
      if (known[p]) forget.push(p);
      const format = f.endsWith('.csv') ? 'csv' : f.endsWith('.parquet') ? 'parquet' : 'json';
      yield { kind: 'file', resource: 'data', path: p, format } as ReadItem;
    }
    for (const p of Object.keys(known)) if (!now[p]) forget.push(p);
    if (forget.length) yield { kind: 'forget_files', resource: 'data', sourceFiles: forget } as ReadItem;
    yield { kind: 'state', resource: 'data', state: { files: now } } as ReadItem;
  },
});

/** a type declared without a runtime (declareSource): its sync fails with not_implemented */
export const testManifestOnly = declareSource({
  type: 'test_manifest_only',
  category: 'stream',
  authKind: 'none',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
});

let registered = false;
export async function registerTestSources(): Promise<void> {
  if (registered) return;
  const reg = await loadSourceRegistry();
  if (!reg.get('test_records')) reg.add(testRecords, 'test');
  if (!reg.get('test_files')) reg.add(testFiles, 'test');
  if (!reg.get('test_manifest_only')) reg.add(testManifestOnly, 'test');
  registered = true;
}

export interface SyncTestApp {
  dir: string;
  app: BasinApp;
  engine: SyncEngineImpl;
  clock: ManualClock;
  close(): Promise<void>;
}

export async function bootSync(sourcesYml: string, files: Record<string, string> = {}, opts: { auth?: boolean; projectYmlExtra?: string; platform?: string } = {}): Promise<SyncTestApp> {
  await registerTestSources();
  const dir = makeProject({ '.basin/sources.yml': sourcesYml, ...files });
  if (!opts.auth) disableAuth(dir);
  if (opts.platform) {
    const f = path.join(dir, '.basin', 'project.yml');
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('platform:\n', `platform:\n${opts.platform}`));
  }
  if (opts.projectYmlExtra) fs.appendFileSync(path.join(dir, '.basin', 'project.yml'), `\n${opts.projectYmlExtra}\n`);
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const app = await bootApp(dir, { clock, plugins: [sourcesPlugin, syncPlugin] });
  const engine = app.container.resolve<SyncEngineImpl>('syncEngine');
  return {
    dir,
    app,
    engine,
    clock,
    async close() {
      await (engine as any).idle?.();
      await app.close();
    },
  };
}

export async function rows(app: BasinApp, sql: string): Promise<Record<string, unknown>[]> {
  return app.warehouse.query(sql);
}

export const XHR = { 'x-requested-with': 'XMLHttpRequest' } as const;
