import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { addLogRedactor, loggerRedaction, redactUrl } from '@basin/core';

test('invite, reset and setup tokens and credential parameters are removed from logged URLs', () => {
  assert.equal(redactUrl('/invite/abcDEF123'), '/invite/[redacted]');
  assert.equal(redactUrl('/api/auth/invite/abcDEF123?x=1'), '/api/auth/invite/[redacted]?x=1');
  assert.equal(redactUrl('/setup?token=t0k3n&next=/'), '/setup?token=[redacted]&next=/');
  assert.equal(redactUrl('/api/auth/oauth/google/callback?code=c0de&state=st4te'), '/api/auth/oauth/google/callback?code=[redacted]&state=[redacted]');
  assert.equal(redactUrl('/api/sources?limit=5'), '/api/sources?limit=5');
});

test('the server log shows neither request tokens nor registered secrets', async () => {
  const lines: string[] = [];
  const stream = new Writable({ write: (c, _e, cb) => (lines.push(String(c)), cb()) });
  const app = Fastify({ logger: { level: 'info', stream, ...loggerRedaction } });
  app.get('/invite/:token', async (req) => {
    req.log.error({ err: new Error('upstream said key=s3cr3t%2Bkey') }, 'failed with s3cr3t+key');
    return { ok: true };
  });
  const remove = addLogRedactor((t) => t.split('s3cr3t+key').join('***').split('s3cr3t%2Bkey').join('***'));
  try {
    await app.inject({ method: 'GET', url: '/invite/one-time-token-123?token=abc' });
  } finally {
    remove();
    await app.close();
  }
  const all = lines.join('');
  assert.match(all, /\/invite\/\[redacted\]/);
  assert.ok(!all.includes('one-time-token-123'), all);
  assert.ok(!all.includes('token=abc'), all);
  assert.ok(!all.includes('s3cr3t'), all);
});
