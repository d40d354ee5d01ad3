import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import Provider from 'oidc-provider';
import { bootApp, makeProject } from '@basin/test';
import type { BasinApp } from '@basin/core';
import authPlugin, { type AuthService } from '../src/index.js';

/**
 * OAuth login end to end against a real OpenID Connect provider (oidc-provider) on loopback. The provider's
 * interaction step (login + consent) signs in whichever account the test picks, as a user would.
 */
const ACCOUNTS: Record<string, { email: string; name: string }> = {
  'sub-alice': { email: 'alice@example.com', name: 'Alice' },
  'sub-stranger': { email: 'stranger@example.com', name: 'Stranger' },
};

describe('OIDC login', () => {
  let app: BasinApp;
  let auth: AuthService;
  let basinUrl = '';
  let idp: http.Server;
  let provider: Provider;
  let account = 'sub-alice';

  before(async () => {
    idp = http.createServer((req, res) => void handleIdp(req, res));
    await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
    const issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    const dir = makeProject();
    const f = `${dir}/.basin/project.yml`;
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace('auth:\n  enabled: true\n', `auth:\n  enabled: true\n  oauth_providers:\n    test:\n      issuer: ${issuer}\n      client_id: basin\n      client_secret: a-long-client-secret-for-tests\n`));
    app = await bootApp(dir, { plugins: [authPlugin] });
    auth = app.container.resolve<AuthService>('auth');
    await auth.addUserWithPassword({ id: null, email: 't', ip: null }, 'alice@example.com', 'editor', 'alice password here');
    basinUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    provider = new Provider(issuer, {
      clients: [{ client_id: 'basin', client_secret: 'a-long-client-secret-for-tests', redirect_uris: [`${basinUrl}/api/auth/oauth/test/callback`], grant_types: ['authorization_code'], response_types: ['code'] }],
      findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub, email: ACCOUNTS[sub]!.email, email_verified: true, name: ACCOUNTS[sub]!.name }) }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      cookies: { keys: ['test-cookie-key'] },
    });
  });
  after(async () => {
    await app?.close();
    idp?.close();
  });

  async function handleIdp(req: http.IncomingMessage, res: http.ServerResponse) {
    try {
      if (req.url?.startsWith('/interaction/')) {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
        } else {
          const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
          grant.addOIDCScope('openid email profile');
          await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
        }
        return;
      }
      provider.callback()(req, res);
    } catch (e) {
      res.statusCode = 500;
      res.end(String(e));
    }
  }

  /** a browser: follows redirects by hand with one cookie jar; returns the response that leaves the flow */
  async function browse(start: string, jar: Map<string, string>, stopAtBasin = true) {
    let url = start;
    for (let i = 0; i < 20; i++) {
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of res.headers.getSetCookie()) {
        const [kv] = c.split(';');
        const eq = kv!.indexOf('=');
        jar.set(kv!.slice(0, eq), kv!.slice(eq + 1));
      }
      const loc = res.headers.get('location');
      if (!loc) return { res, url };
      const next = new URL(loc, url).href;
      if (stopAtBasin && next.startsWith(basinUrl) && !next.includes('/api/auth/oauth/')) return { res, url: next };
      url = next;
    }
    throw new Error('too many redirects');
  }

  test('an existing e-mail logs in and links the identity; PKCE and state are used', async () => {
    account = 'sub-alice';
    const jar = new Map<string, string>();
    const first = await fetch(`${basinUrl}/api/auth/oauth/test/login`, { redirect: 'manual' });
    const authUrl = new URL(first.headers.get('location')!);
    assert.equal(authUrl.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(authUrl.searchParams.get('state'));
    const { url } = await browse(`${basinUrl}/api/auth/oauth/test/login`, jar);
    assert.equal(url, `${basinUrl}/`);
    const me = await fetch(`${basinUrl}/api/auth/me`, { headers: { cookie: `basin_session=${jar.get('basin_session')}` } });
    assert.equal(me.status, 200);
    assert.equal((await me.json()).email, 'alice@example.com');
    const link = auth.db.prepare('SELECT * FROM auth_identities WHERE provider = ?').get('test') as { subject: string };
    assert.equal(link.subject, 'sub-alice');
  });

  test('an unknown e-mail is redirected to /login?error=… and no account is created', async () => {
    account = 'sub-stranger';
    const before = auth.users.count();
    const jar = new Map<string, string>();
    const { url } = await browse(`${basinUrl}/api/auth/oauth/test/login`, jar);
    assert.equal(url, `${basinUrl}/login?error=oauth_no_account`);
    assert.equal(jar.has('basin_session'), false);
    assert.equal(auth.users.count(), before);
  });

  test('a bad or replayed state is refused', async () => {
    account = 'sub-alice';
    // capture the provider's redirect back to Basin without following it
    const jar = new Map<string, string>();
    const first = await fetch(`${basinUrl}/api/auth/oauth/test/login`, { redirect: 'manual' });
    for (const c of first.headers.getSetCookie()) jar.set(c.split(';')[0]!.split('=')[0]!, c.split(';')[0]!.split('=').slice(1).join('='));
    let url = first.headers.get('location')!;
    let callback = '';
    for (let i = 0; i < 20 && !callback; i++) {
      const res = await fetch(url, { redirect: 'manual', headers: { cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') } });
      for (const c of res.headers.getSetCookie()) jar.set(c.split(';')[0]!.split('=')[0]!, c.split(';')[0]!.split('=').slice(1).join('='));
      const next = new URL(res.headers.get('location')!, url).href;
      if (next.startsWith(`${basinUrl}/api/auth/oauth/test/callback`)) callback = next;
      url = next;
    }
    const cookie = `basin_oauth_state=${jar.get('basin_oauth_state')}`;
    const tampered = new URL(callback);
    tampered.searchParams.set('state', 'forged-state');
    const bad = await fetch(tampered, { redirect: 'manual', headers: { cookie } });
    assert.equal(bad.headers.get('location'), '/login?error=oauth_invalid_state');
    assert.equal(bad.headers.getSetCookie().some((c) => c.startsWith('basin_session=')), false);
    const noCookie = await fetch(callback, { redirect: 'manual' });
    assert.equal(noCookie.headers.get('location'), '/login?error=oauth_invalid_state', 'state not bound to this browser');
    // refused attempts do not burn the real login; the genuine browser completes it once
    const ok = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    assert.equal(ok.headers.get('location'), '/');
    const replay = await fetch(callback, { redirect: 'manual', headers: { cookie } });
    assert.equal(replay.headers.get('location'), '/login?error=oauth_invalid_state', 'a state is single use');
  });
});
