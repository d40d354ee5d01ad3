import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redactSecrets, secretForms } from '../src/index.js';

test('every encoding of a secret is masked: raw, URL-encoded, form-encoded, JSON-escaped, base64', () => {
  const key = 'k3y+With/Slash="quoted"\\ sp';
  const texts = [
    `raw ${key}`,
    `GET /v2/items?key=${encodeURIComponent(key)}`,
    `lower ${encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())}`,
    `form ${new URLSearchParams({ key }).toString()}`,
    `json ${JSON.stringify({ key })}`,
    `double json ${JSON.stringify(JSON.stringify({ key }))}`,
    `b64 ${Buffer.from(key).toString('base64')} b64url ${Buffer.from(key).toString('base64url')}`,
  ];
  for (const t of texts) {
    const out = redactSecrets(t, [key]);
    for (const f of secretForms(key)) assert.ok(!out.includes(f), `${t} → ${out}`);
    assert.match(out, /\*{8}/, t);
  }
});

test('a Basic credential registered as user:password is masked in its Authorization form', () => {
  const pair = 'alice:s3cr3t/pass';
  const header = `Authorization: Basic ${Buffer.from(pair).toString('base64')}`;
  assert.equal(redactSecrets(header, [pair]), 'Authorization: Basic ********');
});

test('short values and empty text are left alone', () => {
  assert.equal(redactSecrets('abc abc', ['abc']), 'abc abc');
  assert.equal(redactSecrets('', ['secret']), '');
});
