import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { bootSync, type SyncTestApp } from './helpers.js';

const KEY = 'k3y+With/Slash=abc123';
/** every form in which the key could leak */
const FORMS = [KEY, encodeURIComponent(KEY), encodeURIComponent(KEY).toLowerCase(), new URLSearchParams({ k: KEY }).toString().slice(2), Buffer.from(KEY).toString('base64')];

/**
 * Issue 12 item 4: a rest_api source with the key in the query string; the API answers an error that
 * echoes the request path (URL-encoded key included). No public route may show the key in any form.
 */
describe('a URL-encoded API key never reaches the sync error, logs or details', () => {
  let t: SyncTestApp;
  let api: http.Server;

  before(async () => {
    api = http.createServer((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'bad request', path: req.url, echo: { raw: KEY, b64: Buffer.from(KEY).toString('base64') } }));
    });
    await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
    const port = (api.address() as AddressInfo).port;
    t = await bootSync(
      `version: "1.0"
sources:
  - name: items
    type: rest_api
    rest_api:
      base_url: http://127.0.0.1:${port}
      endpoints: [{ path: /v2/items }]
      auth_type: api_key
      api_key_name: key
      api_key_location: query
      auth_token_env: ITEMS_KEY
      max_retries: 0
`,
      { '.env': `ITEMS_KEY=${KEY}\n` },
    );
  });
  after(async () => {
    await t?.close();
    api?.close();
  });

  it('the failed sync, its logs, the details and /api/logs show no form of the key', async () => {
    const record = await t.engine.run('items');
    assert.equal(record.status, 'failed');
    assert.match(record.error ?? '', /answered 400/);
    const bodies = [JSON.stringify(record)];
    for (const url of ['/api/sources/items/details', '/api/sources/items/logs', '/api/logs', '/api/sources']) {
      const r = await t.app.http.inject({ method: 'GET', url });
      assert.equal(r.statusCode, 200, url);
      bodies.push(r.body);
    }
    const all = bodies.join('\n');
    assert.match(all, /\/v2\/items/, 'the error still says what failed');
    for (const f of FORMS) assert.ok(!all.includes(f), `leaked as ${f}`);
    assert.match(all, /\*{8}/);
  });
});
