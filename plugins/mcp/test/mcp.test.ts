// The MCP server driven by the SDK's own client, over streamable HTTP (/mcp) and over stdio
// (`basin mcp`, relaying to the running server), against one real server with auth on.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { BasinApp } from '@basin/core';
import type { AuthService } from '@basin/plugin-auth/contract';
import { bootApp, makeProject } from '@basin/test';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../bin/basin.mjs');
let app: BasinApp;
let url: string;
let dir: string;
const keys: Record<string, string> = {};

async function api(method: string, p: string, key: string, body?: unknown): Promise<any> {
  const res = await fetch(`${url}${p}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  return { status: res.status, body: await res.json() };
}

async function httpClient(key: string | null): Promise<Client> {
  const client = new Client({ name: 'basin-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} } }));
  return client;
}

const json = (r: any) => JSON.parse(r.content[0].text);

before(async () => {
  dir = makeProject({
    '.basin/sources.yml': 'version: "1.0"\nsources:\n  - name: shop\n    type: local_files\n    local_files:\n      directory: data/in\n',
    'data/in/orders.csv': 'id,amount,email\n1,10.5,ann@example.com\n2,20,bob@example.com\n3,7.25,cy@example.com\n',
  });
  app = await bootApp(dir);
  const auth = app.container.resolve<AuthService>('auth');
  for (const role of ['admin', 'viewer'] as const) {
    const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, `${role}@example.com`, role, 'mcp test password');
    keys[role] = auth.keys.create(u.id, 'mcp', null).key;
  }
  url = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
  const started = await api('POST', '/api/sync/trigger', keys.admin!, { sources: ['shop'] });
  assert.equal(started.status, 202, JSON.stringify(started.body));
  for (let i = 0; i < 200; i++) {
    const r = await api('GET', `/api/sync/status/${started.body.started[0].id}`, keys.admin!);
    if (r.body.status !== 'running' && r.body.status !== 'queued') break;
    await new Promise((res) => setTimeout(res, 100));
  }
});
after(() => app?.close());

describe('MCP over streamable HTTP at /mcp', () => {
  it('refuses a caller without credentials', async () => {
    await assert.rejects(httpClient(null), /401|not_authenticated|Unauthorized/i);
  });

  it("filters tools by the key's role exactly like /api/tools: a viewer sees no write tools", async () => {
    const viewer = await httpClient(keys.viewer!);
    const admin = await httpClient(keys.admin!);
    try {
      const vt = (await viewer.listTools()).tools.map((t) => t.name);
      const at = (await admin.listTools()).tools.map((t) => t.name);
      for (const t of ['list_sources', 'catalog_summary', 'catalog_search', 'lineage', 'impact', 'list_models', 'get_model', 'sync_logs', 'sync_history']) assert.ok(vt.includes(t), `viewer has ${t}: ${vt}`);
      // query.execute, source.sync and tx.run are editor permissions
      for (const t of ['query', 'trigger_sync', 'run_models']) {
        assert.ok(!vt.includes(t), `viewer must not see ${t}`);
        assert.ok(at.includes(t), `admin sees ${t}`);
      }
      // the viewer's /api/tools has no sync trigger; the admin's has
      const vTools = (await api('GET', '/api/tools', keys.viewer!)).body as Array<{ method: string; path: string }>;
      assert.ok(!vTools.some((t) => t.method === 'POST' && t.path === '/api/sync/trigger'));
      const aTools = (await api('GET', '/api/tools', keys.admin!)).body as Array<{ method: string; path: string }>;
      assert.ok(aTools.some((t) => t.method === 'POST' && t.path === '/api/sync/trigger'));
      // a tool the role lacks cannot be called either
      const denied = await viewer.callTool({ name: 'trigger_sync', arguments: {} });
      assert.equal(denied.isError, true);
    } finally {
      await viewer.close();
      await admin.close();
    }
  });

  it('answers what the HTTP API answers', async () => {
    const c = await httpClient(keys.viewer!);
    const admin = await httpClient(keys.admin!);
    try {
      assert.deepEqual(json(await c.callTool({ name: 'list_sources', arguments: {} })), (await api('GET', '/api/sources', keys.viewer!)).body);
      assert.deepEqual(json(await c.callTool({ name: 'catalog_search', arguments: { q: 'shop' } })), (await api('GET', '/api/catalog/search?q=shop', keys.viewer!)).body);
      assert.deepEqual(json(await c.callTool({ name: 'lineage', arguments: {} })), (await api('GET', '/api/catalog/lineage', keys.viewer!)).body);
      assert.deepEqual(json(await c.callTool({ name: 'list_models', arguments: {} })), (await api('GET', '/api/tx/models', keys.viewer!)).body);
      const sql = 'SELECT id, amount FROM raw_shop.shop ORDER BY id';
      const { elapsed_ms: _a, ...q } = json(await admin.callTool({ name: 'query', arguments: { sql } }));
      const { elapsed_ms: _b, ...direct } = (await api('POST', '/api/query', keys.admin!, { sql })).body;
      assert.deepEqual(q, direct);
      assert.equal(q.row_count, 3);
      const logs = json(await c.callTool({ name: 'sync_logs', arguments: { source: 'shop' } }));
      assert.ok(logs.items.length > 0);
      const { generated_at: _g1, ...summary } = json(await c.callTool({ name: 'catalog_summary', arguments: {} }));
      const { generated_at: _g2, ...summaryApi } = (await api('GET', '/api/catalog/summary', keys.viewer!)).body;
      assert.deepEqual(summary, summaryApi);
      assert.deepEqual(json(await c.callTool({ name: 'attention', arguments: {} })), (await api('GET', '/api/governance/attention', keys.viewer!)).body);
      assert.deepEqual(json(await c.callTool({ name: 'schema_drift', arguments: {} })), (await api('GET', '/api/governance/schema-drift?limit=100', keys.viewer!)).body);
      const history = json(await c.callTool({ name: 'sync_history', arguments: { source: 'shop' } }));
      assert.deepEqual({ items: history.items, total: history.total }, (await api('GET', '/api/sources/shop/details', keys.viewer!)).body.sync_history);
      assert.equal(history.items[0].status, 'succeeded');
      const missing = await c.callTool({ name: 'get_model', arguments: { model: 'no_such_model' } });
      assert.equal(missing.isError, true);
      assert.match((missing.content as Array<{ text: string }>)[0]!.text, /not_found/);
    } finally {
      await c.close();
      await admin.close();
    }
  });

  it('refuses a write statement with the query guard', async () => {
    const c = await httpClient(keys.admin!);
    try {
      const r = await c.callTool({ name: 'query', arguments: { sql: 'DELETE FROM raw_shop.shop' } });
      assert.equal(r.isError, true);
      assert.match((r.content as Array<{ text: string }>)[0]!.text, /SELECT/);
      const n = json(await c.callTool({ name: 'query', arguments: { sql: 'SELECT count(*)::INT AS n FROM raw_shop.shop' } }));
      assert.deepEqual(n.rows, [[3]]);
    } finally {
      await c.close();
    }
  });

  it('offers the config docs as resources', async () => {
    const c = await httpClient(keys.viewer!);
    try {
      const uris = (await c.listResources()).resources.map((r) => r.uri);
      assert.ok(uris.includes('basin://docs/sources'), uris.join(' '));
      assert.ok(uris.includes('basin://project/config'));
      const doc = await c.readResource({ uri: 'basin://docs/sources' });
      assert.match((doc.contents[0] as { text: string }).text, /sources\.yml/);
    } finally {
      await c.close();
    }
  });

  it('writes every tool call to the audit log', async () => {
    const audit = (await api('GET', '/api/admin/audit?action=mcp.tool_call&limit=500', keys.admin!)).body;
    assert.ok(audit.items.length >= 5, JSON.stringify(audit).slice(0, 300));
    const q = audit.items.find((i: any) => i.target === 'query' && i.outcome === 'failure');
    assert.ok(q, 'the refused query is audited as a failure');
    assert.equal(q.actor_email, 'admin@example.com');
    assert.ok(audit.items.some((i: any) => i.target === 'list_sources' && i.actor_email === 'viewer@example.com' && i.outcome === 'success'));
  });
});

describe('basin mcp over stdio', () => {
  it('relays to the running server with the API key: tools filtered, results match the API', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=development', '--import', 'tsx', bin, 'mcp', '--project', dir],
      env: { ...(process.env as Record<string, string>), BASIN_DEV: '1', BASIN_API_KEY: keys.viewer! },
      stderr: 'pipe',
    });
    const c = new Client({ name: 'basin-test', version: '1.0.0' });
    await c.connect(transport);
    try {
      const tools = (await c.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('list_sources') && !tools.includes('query') && !tools.includes('trigger_sync'), tools.join(' '));
      assert.deepEqual(json(await c.callTool({ name: 'list_sources', arguments: {} })), (await api('GET', '/api/sources', keys.viewer!)).body);
    } finally {
      await c.close();
    }
  });

  it('without a server, opens the project itself (host administrator) and still guards queries', async () => {
    const offline = makeProject();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--conditions=development', '--import', 'tsx', bin, 'mcp', '--project', offline],
      env: { ...(process.env as Record<string, string>), BASIN_DEV: '1' },
      stderr: 'pipe',
    });
    const c = new Client({ name: 'basin-test', version: '1.0.0' });
    await c.connect(transport);
    try {
      const tools = (await c.listTools()).tools.map((t) => t.name);
      assert.ok(tools.includes('trigger_sync'), tools.join(' '));
      assert.deepEqual(json(await c.callTool({ name: 'list_sources', arguments: {} })), []);
      assert.equal((await c.callTool({ name: 'query', arguments: { sql: 'CREATE TABLE x (a INT)' } })).isError, true);
    } finally {
      await c.close();
    }
    assert.equal(fs.existsSync(path.join(offline, '.basin', 'server.json')), false);
  });
});
