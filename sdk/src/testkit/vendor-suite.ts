import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { resolveConfig } from '../config.js';
import type { ResourceSpec, SourceDefinition } from '../types.js';
import { collectRead, type ReadResult } from './collect.js';
import { createTestContext } from './context.js';
import { runSourceContract } from './contract.js';
import type { FakeRequest, FakeVendor } from './fake-vendor.js';

export interface VendorSuiteOptions {
  source: SourceDefinition<any>;
  /** a valid config pointing at the fake */
  config: () => unknown;
  /** environment: the secret the fake accepts */
  env: Record<string, string>;
  /** the variable whose value the auth-failure check replaces (omitted: the API has no auth) */
  secretEnv?: string;
  fake: FakeVendor;
  /** (re)fills the fake's tables with the standard data set */
  seed(): void;
  /** resources read by the checks (default the source's defaults) */
  resources?: string[];
  /** incremental check: adds newer records; `asksOnlyNewer` must hold for a second-sync request of the resource */
  incremental?: {
    resource: string;
    addNewer(): void;
    /** true for the requests that read the resource */
    reads(req: FakeRequest): boolean;
    /** true when the request asks only for records newer than the first sync's */
    asksOnlyNewer(req: FakeRequest): boolean;
  };
  /** makes the records after the first page carry a field the first page lacked; returns the resource and the column to expect */
  addFieldMidStream(): { resource: string; column: string };
  /** a config missing a required field, and that field's JSON pointer */
  missingRequired?: { config: unknown; path: string };
  /** resources that must be empty after `fake.empty()` (default all); others may hold fixed data (profiles) */
  emptyResources?: string[];
  /** the vendor's throttling answer carries no Retry-After: the storm check expects backoff instead */
  noRetryAfter?: boolean;
  /** a storm longer than one retry (default 3 answers of 429) */
  stormSize?: number;
}

/**
 * The checks every vendor source passes against its fake (one `describe` per vendor): the SDK
 * contract, a second sync that asks only for newer records, a storm of 429s honouring
 * Retry-After, a 5xx retried, an auth failure naming the variable without its value, an empty
 * account, and a field that appears mid-stream.
 */
export function runVendorSuite(o: VendorSuiteOptions): void {
  const { source, fake } = o;
  const sleeps: number[] = [];
  const sleep = async (ms: number) => void sleeps.push(ms);
  const ctx = (env = o.env, extra: Parameters<typeof createTestContext>[2] = {}) => createTestContext(source, o.config(), { name: source.type, env, sleep, ...extra });
  const wanted = (): ResourceSpec[] => (o.resources ?? source.defaultResources ?? []).map((n) => ({ name: n }));
  const read = (state: Record<string, Record<string, unknown>> = {}) => collectRead(source, ctx(), wanted(), state);
  const count = (r: ReadResult) => Object.values(r.records).reduce((n, rows) => n + rows.length, 0);
  const fresh = () => {
    fake.clearFaults();
    fake.empty();
    o.seed();
    sleeps.length = 0;
  };

  fresh();
  runSourceContract(source, o.config(), { name: source.type, env: o.env, sleep, resources: o.resources, addData: o.incremental?.addNewer, skipIncremental: !o.incremental });

  describe(`vendor behaviour: ${source.type}`, () => {
    if (o.incremental) {
      const inc = o.incremental;
      test('incremental: the second sync asks only for newer records', async () => {
        fresh();
        // the resource alone: a replaced child resource may read its parent whole
        const only = () => [{ name: inc.resource }];
        const first = await collectRead(source, ctx(), only(), {});
        assert.ok((first.records[inc.resource]?.length ?? 0) > 0, `the first sync reads ${inc.resource}`);
        assert.ok(first.state[inc.resource], `the first sync commits a cursor for ${inc.resource}`);
        inc.addNewer();
        const mark = fake.requests.length;
        const second = await collectRead(source, ctx(), only(), first.state);
        const asked = fake.since(mark).filter(inc.reads);
        assert.ok(asked.length > 0, `the second sync requests ${inc.resource}`);
        for (const req of asked) assert.ok(inc.asksOnlyNewer(req), `second-sync request asks for everything: ${req.method} ${req.url.pathname}${req.url.search}`);
        const rows = second.records[inc.resource] ?? [];
        assert.ok(rows.length > 0, 'the newer records are read');
        const pk = source.resources?.find((r) => r.name === inc.resource)?.primaryKey;
        const key = (row: Record<string, unknown>) => JSON.stringify(pk?.length ? pk.map((k) => row[k]) : row);
        const old = new Set((first.records[inc.resource] ?? []).map(key));
        for (const row of rows) assert.ok(!old.has(key(row)), `record read again: ${key(row)}`);
      });
    }

    test('rate limits: a storm of 429 with Retry-After is waited out and nothing is lost', async () => {
      fresh();
      const baseline = count(await read());
      const n = o.stormSize ?? 3;
      fake.rateLimit(n, 2);
      sleeps.length = 0;
      const res = await read();
      assert.equal(count(res), baseline);
      if (o.noRetryAfter) assert.ok(sleeps.length >= n && sleeps.every((s) => s > 0), 'backed off after each throttled answer');
      else assert.deepEqual(sleeps.slice(0, n), new Array(n).fill(2000), 'waited what Retry-After asked, each time');
    });

    test('server errors: a 5xx is retried with backoff', async () => {
      fresh();
      const baseline = count(await read());
      fake.failNext(2, 503);
      sleeps.length = 0;
      const res = await read();
      assert.equal(count(res), baseline);
      assert.equal(sleeps.length, 2);
      assert.ok(sleeps[1]! >= sleeps[0]! / 2 && sleeps.every((s) => s > 0), 'backs off between attempts');
    });

    if (o.secretEnv) test('auth failure: the error names the variable and never shows the secret', async () => {
      const secretEnv = o.secretEnv!;
      fresh();
      const wrong = `wrong-${secretEnv.toLowerCase()}-value-123`;
      const env = { ...o.env, [secretEnv]: wrong };
      let message = '';
      await assert.rejects(collectRead(source, ctx(env), wanted(), {}), (err: Error) => ((message = err.message), true));
      assert.ok(message.includes(secretEnv), `error names ${secretEnv}: ${message}`);
      assert.ok(!message.includes(wrong), 'error does not contain the secret');
      const checked = await source.check(ctx(env));
      assert.equal(checked.ok, false);
      assert.ok(checked.message?.includes(secretEnv) && !checked.message.includes(wrong), `check explains: ${checked.message}`);
    });

    test('empty account: the sync succeeds with no rows', async () => {
      fresh();
      fake.empty();
      const res = await read();
      const names = o.emptyResources ?? Object.keys(res.records);
      for (const n of names) assert.equal(res.records[n]?.length ?? 0, 0, `${n} is empty`);
    });

    test('a field added mid-stream becomes a column of the later records', async () => {
      fresh();
      const { resource, column } = o.addFieldMidStream();
      const res = await read();
      const rows = res.records[resource] ?? [];
      assert.ok(rows.length > 1, `${resource} has rows`);
      assert.ok(rows[0]![column] === undefined || rows[0]![column] === null, 'the first record has no value for the field');
      assert.ok(rows.some((r) => r[column] !== undefined && r[column] !== null), `later records carry ${column}`);
    });

    if (o.missingRequired) {
      const mr = o.missingRequired;
      test('config: a missing required field is reported at config time', () => {
        const { problems } = resolveConfig(source.configSchema, mr.config);
        assert.ok(problems.some((p) => p.path === mr.path), `problem at ${mr.path}: ${JSON.stringify(problems)}`);
      });
    }
  });
}
