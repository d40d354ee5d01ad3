import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bootApp, makeProject } from '@basin/test';
import { setupUrl } from '../src/index.js';

test('the setup link names the address the server listens on', () => {
  assert.equal(setupUrl({ address: '127.0.0.1', port: 9123, family: 'IPv4' }, 'tok'), 'http://127.0.0.1:9123/setup?token=tok');
  assert.equal(setupUrl({ address: '::1', port: 9123, family: 'IPv6' }, 'tok'), 'http://[::1]:9123/setup?token=tok');
  assert.equal(setupUrl({ address: '0.0.0.0', port: 80, family: 'IPv4' }, 'tok'), 'http://localhost:80/setup?token=tok');
});

test('on listen with no users, a working one-time setup link is printed for the real port', async () => {
  const app = await bootApp(makeProject());
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string) => (printed.push(String(chunk)), true)) as typeof process.stdout.write;
  let base: string;
  try {
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  } finally {
    process.stdout.write = write;
  }
  try {
    const m = /(http:\/\/127\.0\.0\.1:(\d+)\/setup\?token=(\S+))/.exec(printed.join(''));
    assert.ok(m, printed.join(''));
    assert.equal(`http://127.0.0.1:${m[2]}`, base);
    const r = await fetch(`${base}/api/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ token: m[3], email: 'first@example.com', password: 'correct horse battery staple' }),
    });
    assert.ok(r.ok, String(r.status));
    const body = await r.json();
    assert.equal(body.user.role, 'admin');
    // the link is single use
    const again = await fetch(`${base}/api/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
      body: JSON.stringify({ token: m[3], email: 'second@example.com', password: 'correct horse battery staple' }),
    });
    assert.ok(again.status >= 400, String(again.status));
  } finally {
    await app.close();
  }
});
