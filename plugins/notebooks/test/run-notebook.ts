// Runs every cell of a notebook through Basin's proxy with marimo's own protocol (the page, its
// WebSocket, kernel/instantiate) and returns the notebook's variables; fails on a cell error.
import assert from 'node:assert/strict';
import WebSocket from 'ws';

/** `url` ends with a slash; `key` is a Basin API key of the lock holder */
export async function runNotebook(url: string, key: string, name: string): Promise<Record<string, string>> {
  const page = await fetch(`${url}notebooks/${name}/`, { headers: { authorization: `Bearer ${key}` } });
  const html = await page.text();
  assert.equal(page.status, 200, html.slice(0, 300));
  const serverToken = /marimo-server-token data-token="([^"]+)"/.exec(html)?.[1];
  assert.ok(serverToken, 'marimo page');
  const sid = `t${Date.now()}`;
  const ws = new WebSocket(`${url.replace('http', 'ws')}notebooks/${name}/ws?session_id=${sid}`, { headers: { authorization: `Bearer ${key}` } });
  const values: Record<string, string> = {};
  const errors: string[] = [];
  const done = new Promise<void>((resolve, reject) => {
    ws.on('message', (m) => {
      const msg = JSON.parse(m.toString());
      if (msg.op === 'variable-values') for (const v of msg.data.variables) values[v.name] = v.value;
      if (msg.op === 'cell-op' && msg.data.output?.channel === 'marimo-error') errors.push(JSON.stringify(msg.data.output.data).slice(0, 300));
      if (msg.op === 'completed-run') resolve();
    });
    ws.on('error', reject);
    ws.on('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  await new Promise((r) => setTimeout(r, 500)); // the kernel starts on connect
  const res = await fetch(`${url}notebooks/${name}/api/kernel/instantiate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'marimo-session-id': sid, 'marimo-server-token': serverToken },
    body: JSON.stringify({ objectIds: [], values: [], autoRun: true }),
  });
  assert.equal(res.status, 200, await res.text());
  await done;
  ws.close();
  assert.deepEqual(errors, [], `cells failed in ${name}`);
  return values;
}
