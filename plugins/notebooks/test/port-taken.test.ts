// A port found free can be taken by someone else before marimo binds it (two Basin projects on one
// host, or two test files, starting notebooks at once). marimo then exits with uvicorn's "address
// already in use"; Basin tries the next free port instead of failing the open. The stand-in for marimo
// here fails on the first port it is given, with uvicorn's message, and serves the health path on any
// other: what is tested is Basin's side (the real marimo runs in notebooks.test.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { tempDir } from '@basin/test';
import { NotebookServers } from '../src/servers.js';

const FAKE_MARIMO = `const http = require('node:http');
const port = Number(process.argv[process.argv.indexOf('-p') + 1]);
const base = process.argv[process.argv.indexOf('--base-url') + 1];
if (port === Number(process.env.FAKE_TAKEN_PORT)) {
  console.error("ERROR:    [Errno 98] error while attempting to bind on address ('127.0.0.1', " + port + "): address already in use");
  process.exit(1);
}
// on FAKE_FOREIGN_PORT it acts as another project's marimo would: healthy, but not taking our token
const foreign = port === Number(process.env.FAKE_FOREIGN_PORT);
http
  .createServer((req, res) => {
    if (req.url === base + '/health') return res.writeHead(200).end('{}');
    if (req.url === base + '/') return res.writeHead(200).end(req.headers.authorization && !foreign ? '<marimo-server-token data-token="t"></marimo-server-token>' : '<title>login</title>');
    res.writeHead(404).end();
  })
  .listen(port, '127.0.0.1');
`;

function servers(dir: string, basePort: number, warnings: unknown[]) {
  const script = path.join(dir, 'fake-marimo.cjs');
  fs.writeFileSync(script, FAKE_MARIMO);
  const marimo = path.join(dir, 'marimo');
  fs.writeFileSync(marimo, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(script)} "$@"\n`, { mode: 0o755 });
  const log = { info: () => undefined, warn: (o: unknown) => warnings.push(o), error: () => undefined, debug: () => undefined };
  return new NotebookServers({
    marimo: async () => marimo,
    projectDir: dir,
    notebookFile: (n) => path.join(dir, `${n}.py`),
    servingPath: () => path.join(dir, 'serving.db'),
    basePort: () => basePort,
    maxServers: () => 2,
    startTimeoutMs: () => 20_000,
    log: log as never,
    now: () => new Date(),
  });
}

const cases = [
  { title: 'a notebook port taken before marimo binds it: the next free port is used, and the taken one is logged', env: 'FAKE_TAKEN_PORT' },
  { title: 'another marimo answering on the port (healthy, but refusing our token) is not taken for ours: the next port is used', env: 'FAKE_FOREIGN_PORT' },
];

for (const c of cases) {
  test(c.title, async () => {
    const dir = tempDir();
    const base = 20_000 + Math.floor(Math.random() * 20_000);
    // the stand-in reads these when it starts: only this case's port is set
    delete process.env.FAKE_TAKEN_PORT;
    delete process.env.FAKE_FOREIGN_PORT;
    process.env[c.env] = String(base);
    const warnings: unknown[] = [];
    const nb = servers(dir, base, warnings);
    try {
      const s = await nb.start('orders');
      assert.ok(s.port > base, `started on ${s.port}, after the taken ${base}`);
      assert.equal((await fetch(`http://127.0.0.1:${s.port}/notebooks/orders/health`)).status, 200);
      assert.deepEqual(warnings, [{ notebook: 'orders', port: base }]);
    } finally {
      await nb.stop('orders');
      delete process.env[c.env];
    }
  });
}
