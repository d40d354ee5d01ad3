import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { catalogedErrors, type BasinApp } from '@basin/core';
import { bootApp, makeProject } from '@basin/test';

/**
 * The HTTP API did not change with issue 11 (contracts, error catalogue, typed handlers) and issue
 * 12 item 7 (response schemas): the OpenAPI document differs from the one captured before them
 * (`fixtures/openapi/before-issue-11.json`, a default project with every workspace plugin) only by
 * the added error statuses with their codes and the declared success bodies. Paths, methods,
 * parameters, request bodies, permissions and summaries are the same.
 */
type Json = Record<string, any>;
const beforeDoc: Json = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'fixtures', 'openapi', 'before-issue-11.json'), 'utf8'));
let app: BasinApp;
let now: Json;

before(async () => {
  app = await bootApp(makeProject());
  now = JSON.parse((await app.http.inject({ method: 'GET', url: '/api/docs/json' })).body);
});
after(() => app?.close());

const operations = (doc: Json) => Object.entries(doc.paths as Json).flatMap(([p, ops]) => Object.keys(ops as Json).map((m) => `${m.toUpperCase()} ${p}`));

test('no operation removed: every path and method of the captured document is still served', () => {
  const is = new Set(operations(now));
  assert.deepEqual(operations(beforeDoc).filter((o) => !is.has(o)), []);
});

// Later issues add operations, optional parameters and better summaries; what a client relied on stays:
// the permission, the security, every parameter (none newly required) and the request body's required fields.
// tags name the plugin that owns a route: the source routes moved from sync to sources (issue 11 item 3)
test('each operation keeps its permission, security, parameters and request body; nothing newly required', () => {
  const required = (body: Json | undefined): string[] => body?.content?.['application/json']?.schema?.required ?? [];
  for (const [p, ops] of Object.entries(beforeDoc.paths as Json)) {
    for (const [m, op] of Object.entries(ops as Json)) {
      const where = `${m.toUpperCase()} ${p}`;
      const was = op as Json;
      const is = now.paths[p][m] as Json;
      assert.equal(is['x-permission'], was['x-permission'], `${where} permission`);
      assert.deepEqual(is.security, was.security, `${where} security`);
      const params = (o: Json): Json[] => o.parameters ?? [];
      for (const old of params(was)) {
        const cur = params(is).find((x) => x.in === old.in && x.name === old.name);
        assert.ok(cur, `${where} lost the ${old.in} parameter ${old.name}`);
      }
      for (const cur of params(is)) {
        const old = params(was).find((x) => x.in === cur.in && x.name === cur.name);
        if (cur.required) assert.ok(old?.required, `${where} newly requires the ${cur.in} parameter ${cur.name}`);
      }
      const extra = required(is.requestBody).filter((f) => !required(was.requestBody).includes(f));
      assert.deepEqual(extra, [], `${where} newly requires body fields`);
    }
  }
});

test('responses only gain: the old ones stay, new error statuses carry the standard body with catalogued codes', () => {
  const known = new Set(catalogedErrors().map((e) => `${e.code} ${e.status}`));
  for (const [p, ops] of Object.entries(beforeDoc.paths as Json)) {
    for (const [m, op] of Object.entries(ops as Json)) {
      const where = `${m.toUpperCase()} ${p}`;
      const was: Json = (op as Json).responses;
      const is: Json = now.paths[p][m].responses;
      for (const [status, r] of Object.entries(was)) {
        // a route that now declares its success body replaces fastify-swagger's placeholder
        const declared = status === '200' && (r as Json).description === 'Default Response' && is['200']?.content;
        if (!declared && status in is) assert.deepEqual(is[status], r, `${where} ${status} changed`);
        if (!(status in is)) assert.ok(status === '200' && Object.keys(is).some((s) => s.startsWith('2')), `${where} lost ${status}`);
      }
      for (const [status, r] of Object.entries(is)) {
        if (status in was || status.startsWith('2')) continue;
        const schema = (r as Json).content?.['application/json']?.schema;
        assert.deepEqual(schema?.required, ['error'], `${where} ${status}: the standard error body`);
        const codes: string[] = schema.properties.error.properties.code.enum;
        assert.ok(codes.length > 0, `${where} ${status}: codes listed`);
        for (const c of codes) assert.ok(known.has(`${c} ${status}`), `${where} ${status}: "${c}" is in a catalogue with this status`);
      }
    }
  }
});

test('every guarded route documents 401, every permission route 403, every route with a schema 422', () => {
  for (const [p, ops] of Object.entries(now.paths as Json)) {
    for (const [m, op] of Object.entries(ops as Json)) {
      const perm = (op as Json)['x-permission'];
      const r: Json = (op as Json).responses;
      if (perm !== 'public') assert.ok(r['401'], `${m} ${p} 401`);
      if (perm !== 'public' && perm !== 'auth') assert.ok(r['403'], `${m} ${p} 403`);
      if ((op as Json).parameters?.length || (op as Json).requestBody) assert.ok(r['422'], `${m} ${p} 422`);
    }
  }
});
