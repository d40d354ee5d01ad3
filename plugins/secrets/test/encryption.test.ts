// Encryption at rest: with BASIN_SECRET_KEY in the server's environment values are sealed in .env, the
// running config opens them, and a rotation re-seals everything under the new key.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, test } from 'node:test';
import { coreServices, openEnvValue, parseSecretKey } from '@basin/core';
import { OAuthTokenStore } from '../src/oauth/token-store.js';
import { makeProject } from '@basin/test';
import { bearer, bootSecrets } from './helpers.js';
import { SecretsStore } from '../src/store.js';

const k1 = crypto.randomBytes(32).toString('base64');
const k2 = crypto.randomBytes(32).toString('hex');
const actor = { id: null, email: null, ip: null, via: 'cli' as const };
const saved = { ...process.env };
after(() => {
  for (const k of ['BASIN_SECRET_KEY', 'BASIN_SECRET_KEY_PREVIOUS']) if (saved[k] === undefined) delete process.env[k];
});

test('values are sealed in the file and opened by config.env(); rotation re-seals with the new key', async () => {
  process.env.BASIN_SECRET_KEY = k1;
  const t = await bootSecrets({ '.env': 'PLAIN_BEFORE=visible\n' });
  try {
    const r = await t.app.http.inject({ method: 'POST', url: '/api/secrets', headers: bearer(t.keys.admin), payload: { key: 'API_TOKEN', value: 'tok-123-secret' } });
    assert.equal(r.json().encrypted, true);
    const text = fs.readFileSync(path.join(t.dir, '.env'), 'utf8');
    assert.ok(!text.includes('tok-123-secret'));
    assert.match(text, /^API_TOKEN=basin-enc:v1:/m);
    assert.equal(t.app.config.env('API_TOKEN'), 'tok-123-secret');
    const list = (await t.app.http.inject({ method: 'GET', url: '/api/secrets', headers: bearer(t.keys.admin) })).json();
    assert.deepEqual(list.env.map((e: { key: string; encrypted: boolean }) => [e.key, e.encrypted]), [['PLAIN_BEFORE', false], ['API_TOKEN', true]]);

    // a stored OAuth connection sealed with the old key
    const tokens = new OAuthTokenStore(t.app.resolve(coreServices.stateDb), () => [parseSecretKey(k1, 'k1')]);
    tokens.put({ source_type: 'google_sheets', access_token: 'ya29.access', refresh_token: '1//refresh', token_type: 'Bearer', scopes: [], expires_at: null, account: null, connected_by: null, connected_at: '2026-03-01T12:00:00Z', refreshed_at: null });

    // rotation: the new key current, the old one previous
    const store = new SecretsStore(t.dir, () => {}, { BASIN_SECRET_KEY: k2, BASIN_SECRET_KEY_PREVIOUS: k1 }, (keys) => tokens.reseal(keys));
    assert.deepEqual(store.rotate(actor), { resealed: 2, oauth_tokens: 1 });
    const underNew = new OAuthTokenStore(t.app.resolve(coreServices.stateDb), () => [parseSecretKey(k2, 'k2')]).get('google_sheets');
    assert.equal(underNew?.access_token, 'ya29.access');
    assert.equal(underNew?.refresh_token, '1//refresh');
    const rotated = fs.readFileSync(path.join(t.dir, '.env'), 'utf8');
    assert.ok(!rotated.includes('visible'), 'plain values are sealed too');
    const sealed = /^API_TOKEN=(.*)$/m.exec(rotated)![1]!;
    assert.equal(openEnvValue('API_TOKEN', sealed, [parseSecretKey(k2, 'k2')]), 'tok-123-secret');
    assert.throws(() => openEnvValue('API_TOKEN', sealed, [parseSecretKey(k1, 'k1')]), (e: Error) => /API_TOKEN/.test(e.message) && !e.message.includes('tok-123'));
    process.env.BASIN_SECRET_KEY = k2;
    assert.equal(t.app.config.env('PLAIN_BEFORE'), 'visible');
    delete process.env.BASIN_SECRET_KEY;
    assert.throws(() => t.app.config.env('API_TOKEN'), /BASIN_SECRET_KEY/);
  } finally {
    await t.app.close();
  }
});

test('rotation without a key says what to set', () => {
  const store = new SecretsStore(makeProject(), () => {}, {});
  assert.throws(() => store.rotate(actor), /BASIN_SECRET_KEY/);
});
