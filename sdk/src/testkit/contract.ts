import assert from 'node:assert/strict';
import fs from 'node:fs';
import { describe, test } from 'node:test';
import { Kind, type TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { ReadItem, ResourceSpec, SourceDefinition } from '../types.js';
import { collectRead, type ReadResult } from './collect.js';
import { createTestContext, type TestContextOptions } from './context.js';
import { tempTestDir } from './temp-dir.js';

export interface ContractOptions extends TestContextOptions {
  /** resources to read (default: the source's defaultResources, else everything discover returns) */
  resources?: string[];
  /** a config for which check() must answer ok: false (without throwing) */
  failingConfig?: unknown;
  /** the first read must yield data (default true) */
  expectData?: boolean;
  /** largest allowed records batch (default 100,000 rows) */
  maxBatch?: number;
  /** runs between the first and the second incremental read, e.g. to add upstream data */
  addData?: () => Promise<void> | void;
  /** identifies a row for the duplicate check when a resource declares no primaryKey */
  rowKey?: (resource: string, row: Record<string, unknown>) => string;
  /** skip the incremental checks even if the source declares the capability */
  skipIncremental?: boolean;
}

const KINDS = new Set(['records', 'file', 'forget_files', 'state']);
const RESOURCE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}

/** Checks one yielded item's shape against the SDK contract. */
export function assertWellFormed(item: ReadItem, declared: Set<string>, maxBatch: number): void {
  assert.ok(item && KINDS.has((item as ReadItem).kind), `unknown item kind ${JSON.stringify((item as any)?.kind)}`);
  assert.ok(declared.has(item.resource), `item for undeclared resource "${item.resource}" (declared: ${[...declared].join(', ')})`);
  switch (item.kind) {
    case 'records':
      assert.ok(Array.isArray(item.records), 'records must be an array');
      assert.ok(item.records.length > 0, `empty records batch for ${item.resource}`);
      assert.ok(item.records.length <= maxBatch, `records batch of ${item.records.length} rows is larger than ${maxBatch}`);
      for (const r of item.records) assert.ok(isPlainObject(r), `a record of ${item.resource} is not a plain object: ${JSON.stringify(r)}`);
      break;
    case 'file':
      assert.ok(['csv', 'json', 'parquet'].includes(item.format), `bad file format ${item.format}`);
      assert.ok(fs.existsSync(item.path), `file item points at a missing file ${item.path}`);
      break;
    case 'forget_files':
      assert.ok(Array.isArray(item.sourceFiles) && item.sourceFiles.every((f) => typeof f === 'string'), 'sourceFiles must be strings');
      break;
    case 'state':
      assert.ok(isPlainObject(item.state), 'state must be a plain object');
      assert.deepEqual(JSON.parse(JSON.stringify(item.state)), item.state, 'state must survive a JSON round trip');
      break;
  }
}

function keyOf(res: ResourceSpec | undefined, row: Record<string, unknown>, rowKey?: ContractOptions['rowKey']): string {
  if (res?.primaryKey?.length) return JSON.stringify(res.primaryKey.map((k) => row[k]));
  if (rowKey) return rowKey(res?.name ?? '', row);
  return JSON.stringify(row);
}

function assertNoLeak(revealed: Set<string>, text: string, where: string): void {
  for (const s of revealed) if (s.length >= 4) assert.ok(!text.includes(s), `a secret value appears in ${where}`);
}

/**
 * Registers node:test subtests checking a source the way acceptance tests do: spec, check,
 * discover, read (well-formed batches for declared resources, no secret in logs) and, for
 * incremental sources, that a second read with the committed state brings no duplicates.
 */
export function runSourceContract(source: SourceDefinition, config: unknown, opts: ContractOptions = {}): void {
  const maxBatch = opts.maxBatch ?? 100_000;
  // one project directory for every read of this run (state must refer to the same files)
  const projectDir = opts.projectDir ?? tempTestDir(`basin-contract-${source.type}-`);
  const ctxFor = (extra: Partial<TestContextOptions> = {}) => createTestContext(source, config, { ...opts, projectDir, ...extra });
  let resources: ResourceSpec[] | null = null;
  async function selected(): Promise<ResourceSpec[]> {
    if (resources) return resources;
    const found = await source.discover(ctxFor());
    const wanted = opts.resources ?? source.defaultResources ?? found.map((r) => r.name);
    resources = wanted.map((n) => {
      const r = found.find((f) => f.name === n) ?? source.resources?.find((f) => f.name === n);
      assert.ok(r, `resource "${n}" is neither discovered nor declared`);
      return r;
    });
    return resources;
  }
  let first: ReadResult | null = null;

  describe(`source contract: ${source.type}`, () => {
    test('spec: manifest and config schema', () => {
      assert.match(source.type, /^[a-z][a-z0-9_]*$/);
      assert.equal(typeof source.category, 'string');
      assert.ok(['none', 'apiKey', 'oauth2', 'basic', 'serviceAccount'].includes(source.authKind), `authKind ${source.authKind}`);
      assert.equal(typeof source.wizard, 'boolean');
      for (const k of ['incremental', 'dateRange', 'customQueries'] as const) assert.equal(typeof source.capabilities[k], 'boolean', `capabilities.${k}`);
      assert.equal((source.configSchema as TObject)[Kind], 'Object', 'configSchema must be a typebox object');
      for (const [key, prop] of Object.entries((source.configSchema as TObject).properties ?? {})) {
        if ('default' in prop) assert.ok(Value.Check(prop, prop.default), `default of ${key} does not match its own schema`);
      }
      const names = (source.resources ?? []).map((r) => r.name);
      assert.equal(new Set(names).size, names.length, 'resource names must be unique');
      for (const n of names) assert.match(n, RESOURCE_NAME);
      for (const d of source.defaultResources ?? []) assert.ok(names.includes(d), `default resource ${d} is not declared`);
      // the given config is valid once defaults are applied (createTestContext throws otherwise)
      const ctx = ctxFor();
      if (source.validateConfig) assert.deepEqual(source.validateConfig(ctx.config), [], 'validateConfig finds no problem in the given config');
    });

    test('check: answers ok for a good config', async () => {
      const ctx = ctxFor();
      const res = await source.check(ctx);
      assert.equal(res.ok, true, `check failed: ${res.message}`);
      assertNoLeak(ctx.revealed, JSON.stringify(res) + JSON.stringify(ctx.logs), 'check output or logs');
    });

    if (opts.failingConfig !== undefined) {
      test('check: answers ok=false with a message for a bad config', async () => {
        const ctx = createTestContext(source, opts.failingConfig, { ...opts, projectDir });
        const res = await source.check(ctx);
        assert.equal(res.ok, false);
        assert.ok(res.message && res.message.length > 0, 'a failing check explains why');
        assertNoLeak(ctx.revealed, JSON.stringify(res), 'check output');
      });
    }

    test('discover: well-formed resources', async () => {
      const found = await source.discover(ctxFor());
      assert.ok(Array.isArray(found) && found.length > 0, 'discover returns at least one resource');
      const names = found.map((r) => r.name);
      assert.equal(new Set(names).size, names.length, 'discovered names are unique');
      for (const r of found) {
        assert.match(r.name, RESOURCE_NAME);
        for (const c of r.columns ?? []) assert.ok(typeof c.name === 'string' && typeof c.type === 'string', `column of ${r.name} needs name and type`);
        if (r.writeDisposition === 'merge') assert.ok(r.primaryKey?.length, `${r.name} merges without a primaryKey`);
      }
    });

    test('read: well-formed batches for the requested resources', async () => {
      const res = await selected();
      const ctx = ctxFor();
      first = await collectRead(source, ctx, res);
      const declared = new Set(res.map((r) => r.name));
      for (const item of first.items) assertWellFormed(item, declared, maxBatch);
      if (opts.expectData ?? true) assert.ok(first.dataItems > 0, 'the first read yields data');
      assertNoLeak(ctx.revealed, JSON.stringify(ctx.logs), 'logs');
    });

    if (source.capabilities.incremental && !opts.skipIncremental) {
      test('incremental: a second read with the committed state brings no duplicates', async () => {
        // resources replaced on every sync are read whole each time; the rest must be incremental
        const res = (await selected()).filter((r) => r.writeDisposition !== 'replace');
        assert.ok(res.length > 0, 'an incremental source has at least one resource that is not replaced on each sync');
        const base = first ?? (await collectRead(source, ctxFor(), res));
        assert.ok(Object.keys(base.state).length > 0, 'an incremental source reports state');
        if (opts.addData) await opts.addData();
        const second = await collectRead(source, ctxFor(), await selected(), base.state);
        const declared = new Set((await selected()).map((r) => r.name));
        for (const item of second.items) assertWellFormed(item, declared, maxBatch);
        for (const r of res) {
          const seen = new Set((base.records[r.name] ?? []).map((row) => keyOf(r, row, opts.rowKey)));
          for (const row of second.records[r.name] ?? []) assert.ok(!seen.has(keyOf(r, row, opts.rowKey)), `${r.name}: row read again: ${JSON.stringify(row).slice(0, 200)}`);
          const files = new Set((base.files[r.name] ?? []).map((f) => f.sourceFile ?? f.path));
          const forgotten = new Set(second.forgotten[r.name] ?? []);
          for (const f of second.files[r.name] ?? []) {
            const id = f.sourceFile ?? f.path;
            assert.ok(!files.has(id) || forgotten.has(id), `${r.name}: file ${id} loaded again without being forgotten first`);
          }
        }
        const incrementalData = res.reduce((n, r) => n + (second.records[r.name]?.length ?? 0) + (second.files[r.name]?.length ?? 0), 0);
        if (opts.addData) assert.ok(incrementalData > 0, 'new upstream data is read');
        else assert.equal(incrementalData, 0, 'nothing changed upstream, so nothing is read');
      });

      test('incremental: full refresh reads everything again', async () => {
        const res = await selected();
        const base = first ?? (await collectRead(source, ctxFor(), res));
        const again = await collectRead(source, ctxFor({ fullRefresh: true }), res, base.state);
        if (opts.expectData ?? true) assert.ok(again.dataItems > 0, 'a full refresh yields data');
      });
    }
  });
}
