import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectRead, createTestContext } from '@basin/sdk/testkit';
import source from '../src/index.js';

test('scrapy: accepted type with an empty config, but check/discover/read refuse with not_configurable', async () => {
  assert.equal(source.type, 'scrapy');
  assert.equal(source.wizard, false);
  const ctx = createTestContext(source, {});
  const check = await source.check(ctx);
  assert.equal(check.ok, false);
  assert.match(check.message!, /reserved.*cannot be configured.*ingest_native/);
  await assert.rejects(source.discover(ctx), (err: any) => err.code === 'not_configurable');
  await assert.rejects(collectRead(source, ctx, []), (err: any) => err.code === 'not_configurable' && /scrapy/.test(err.message));
  assert.throws(() => createTestContext(source, { spider: 'x' }), /config does not match/);
});
