// Provider OAuth for sources end to end against a real OAuth 2.0 / OpenID provider (oidc-provider on
// loopback): connect (authorization code + PKCE, state bound to the session and the browser), tokens
// sealed at rest, handed to a source at sync time through ctx.oauthToken(), refreshed when they expire,
// replayed / foreign / expired states refused, disconnect.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import Provider from 'oidc-provider';
import { coreServices, ManualClock, type BasinApp } from '@basin/core';
import authPlugin, { type AuthService } from '@basin/plugin-auth';
import sourcesPlugin from '@basin/plugin-sources';
import syncPlugin from '@basin/plugin-sync';
import { syncEngineRef } from '@basin/plugin-sync/contract';
import { bootApp, makeProject } from '@basin/test';
import secretsPlugin, { OAuthConnections } from '../src/index.js';
import { sourceOAuthRef } from '@basin/plugin-sources/contract';

const fixture = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'oauth-source');
const PASSWORD = 'a long test password';
const CLIENT_SECRET = 'client-secret-for-oauth-tests-0123456789';

describe('provider OAuth for a source', () => {
  let app: BasinApp;
  let auth: AuthService;
  let basin = '';
  let issuer = '';
  let idp: http.Server;
  let provider: Provider;
  let dir: string;
  const clock = new ManualClock('2026-03-01T12:00:00Z');

  before(async () => {
    idp = http.createServer((req, res) => void handleIdp(req, res));
    await new Promise<void>((r) => idp.listen(0, '127.0.0.1', r));
    issuer = `http://127.0.0.1:${(idp.address() as AddressInfo).port}`;
    dir = makeProject({
      '.basin/sources.yml': `version: "1.0"\nsources:\n  - name: profile\n    type: oauth_test\n    oauth_test:\n      userinfo_url: ${issuer}/me\n`,
    });
    const f = path.join(dir, '.basin/project.yml');
    fs.appendFileSync(f, `plugins:\n  - ${fixture}\noauth:\n  providers:\n    oauth_test:\n      authorization_url: ${issuer}/auth\n      token_url: ${issuer}/token\n      userinfo_url: ${issuer}/me\n`);
    app = await bootApp(dir, { clock, plugins: [authPlugin, sourcesPlugin, syncPlugin, secretsPlugin] });
    auth = app.container.resolve<AuthService>('auth');
    for (const [email, role] of [['admin@example.com', 'admin'], ['other-admin@example.com', 'admin'], ['editor@example.com', 'editor']] as const) {
      await auth.addUserWithPassword({ id: null, email: 't', ip: null }, email, role, PASSWORD);
    }
    basin = (await app.listen({ host: '127.0.0.1', port: 0 })).replace(/\/$/, '');
    // the public address and the client's credentials arrive through .env while the server runs
    fs.writeFileSync(path.join(dir, '.env'), `BASIN_PUBLIC_URL=${basin}\nOAUTH_TEST_CLIENT_ID=basin-sources\nOAUTH_TEST_CLIENT_SECRET=${CLIENT_SECRET}\n`);
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: 'basin-sources',
          client_secret: CLIENT_SECRET,
          redirect_uris: [`${basin}/oauth/callback/oauth_test`],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'client_secret_post',
        },
      ],
      findAccount: async (_ctx: unknown, sub: string) => ({ accountId: sub, claims: async () => ({ sub, email: 'alice@example.com', email_verified: true }) }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'] },
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      issueRefreshToken: async () => true,
      pkce: { required: () => true },
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
          await provider.interactionFinished(req, res, { login: { accountId: 'sub-alice' } }, { mergeWithLastSubmission: false });
        } else {
          const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string });
          grant.addOIDCScope('openid email');
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

  type Jar = Map<string, string>;
  const cookieHeader = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  async function get(url: string, jar: Jar) {
    const res = await fetch(url, { redirect: 'manual', headers: { cookie: cookieHeader(jar) } });
    for (const c of res.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const eq = kv!.indexOf('=');
      const v = kv!.slice(eq + 1);
      if (v === '' || /max-age=0/i.test(c)) jar.delete(kv!.slice(0, eq));
      else jar.set(kv!.slice(0, eq), v);
    }
    return res;
  }
  async function login(email: string): Promise<Jar> {
    const res = await fetch(`${basin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' }, body: JSON.stringify({ email, password: PASSWORD }) });
    assert.equal(res.status, 200);
    const jar: Jar = new Map();
    for (const c of res.headers.getSetCookie()) {
      const [kv] = c.split(';');
      jar.set(kv!.slice(0, kv!.indexOf('=')), kv!.slice(kv!.indexOf('=') + 1));
    }
    return jar;
  }
  /** starts a connection and walks the provider's pages; returns the callback URL the provider sends the browser to */
  async function toCallback(jar: Jar): Promise<{ callback: string; authorize: URL }> {
    const start = await get(`${basin}/oauth/connect/oauth_test`, jar);
    assert.equal(start.status, 302, await start.text());
    const authorize = new URL(start.headers.get('location')!);
    let url = authorize.href;
    for (let i = 0; i < 20; i++) {
      const res = await get(url, jar);
      const loc = res.headers.get('location');
      assert.ok(loc, `provider stopped at ${url}: ${res.status} ${await res.text()}`);
      const next = new URL(loc, url).href;
      if (next.startsWith(`${basin}/oauth/callback/`)) return { callback: next, authorize };
      url = next;
    }
    throw new Error('too many redirects');
  }
  const api = async (jar: Jar, method: string, p: string) => {
    const res = await fetch(`${basin}${p}`, { method, headers: { cookie: cookieHeader(jar), 'x-requested-with': 'XMLHttpRequest' } });
    return { status: res.status, body: (await res.json()) as any };
  };
  const landing = (res: Response) => new URL(res.headers.get('location') ?? '', basin);

  test('an admin connects: PKCE S256, state, tokens sealed, status shows account, scopes and expiry', async () => {
    const jar = await login('admin@example.com');
    const { callback, authorize } = await toCallback(jar);
    assert.equal(authorize.origin, issuer, 'the project override replaces the manifest endpoint');
    assert.equal(authorize.searchParams.get('code_challenge_method'), 'S256');
    assert.match(authorize.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(authorize.searchParams.get('state') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(authorize.searchParams.get('redirect_uri'), `${basin}/oauth/callback/oauth_test`);
    const done = await get(callback, jar);
    assert.equal(done.status, 302);
    assert.equal(landing(done).pathname + landing(done).search, '/settings/secrets?oauth_connected=oauth_test');

    const status = await api(jar, 'GET', '/api/secrets/oauth');
    assert.equal(status.status, 200);
    const s = status.body.find((x: { source_type: string }) => x.source_type === 'oauth_test');
    assert.equal(s.connected, true);
    assert.equal(s.account, 'alice@example.com');
    assert.deepEqual([...s.scopes].sort(), ['email', 'openid']);
    assert.equal(s.expires_at, new Date(clock.now().getTime() + 3600_000).toISOString());
    assert.equal(s.can_refresh, true);
    assert.equal(s.state, 'ok');
    const all = await api(jar, 'GET', '/api/secrets');
    assert.ok(all.body.oauth.some((x: { source_type: string; connected: boolean }) => x.source_type === 'oauth_test' && x.connected));

    const row = app.resolve(coreServices.stateDb).prepare('SELECT access_token, refresh_token FROM oauth_connections').get() as { access_token: string; refresh_token: string };
    assert.match(row.access_token, /^basin-enc:v1:/);
    assert.match(row.refresh_token, /^basin-enc:v1:/);
    const token = (await app.resolve(sourceOAuthRef).token('oauth_test')).accessToken;
    const statusText = JSON.stringify([status.body, all.body]);
    assert.ok(!statusText.includes(token));
  });

  test('the source gets the token through the SDK at sync time', async () => {
    const rec = await app.resolve(syncEngineRef).run('profile');
    assert.equal(rec.status, 'succeeded', JSON.stringify(rec));
    const rows = await app.warehouse.query('SELECT sub, email FROM raw_profile.me');
    assert.deepEqual(rows, [{ sub: 'sub-alice', email: 'alice@example.com' }]);
  });

  test('a token about to expire is refreshed with the refresh token before the source gets it', async () => {
    const tokens = app.resolve(sourceOAuthRef);
    const before = await tokens.token('oauth_test');
    clock.advance(3600_000 - 60_000); // inside the 300 s margin
    const after = await tokens.token('oauth_test');
    assert.notEqual(after.accessToken, before.accessToken);
    assert.equal(after.expiresAt, new Date(clock.now().getTime() + 3600_000).toISOString());
    const s = (await api(await login('admin@example.com'), 'GET', '/api/secrets/oauth')).body.find((x: { source_type: string }) => x.source_type === 'oauth_test');
    assert.equal(s.refreshed_at, clock.now().toISOString());
    // the old access token no longer matters; the new one reads the provider
    const rec = await app.resolve(syncEngineRef).run('profile');
    assert.equal(rec.status, 'succeeded', JSON.stringify(rec));
  });

  test('the minute timer refreshes a token inside the margin without waiting for a sync', async () => {
    const tokens = app.resolve(sourceOAuthRef);
    const before = await tokens.token('oauth_test');
    const connections = app.container.resolve<OAuthConnections>('sourceOAuth');
    assert.deepEqual(await connections.refreshDue(), { refreshed: [], failed: [] }, 'nothing is due yet');
    clock.advance(3600_000 - 120_000);
    assert.deepEqual(await connections.refreshDue(), { refreshed: ['oauth_test'], failed: [] });
    assert.notEqual((await tokens.token('oauth_test')).accessToken, before.accessToken);
  });

  test('a replayed callback, a callback in another session, and an expired state are refused', async () => {
    const jar = await login('admin@example.com');
    const first = await toCallback(jar);
    const ok = await get(first.callback, new Map(jar));
    assert.equal(landing(ok).searchParams.get('oauth_connected'), 'oauth_test');
    const replay = await get(first.callback, jar);
    assert.equal(landing(replay).searchParams.get('oauth_error'), 'oauth_state_invalid');

    // another admin's session finishing this admin's flow (with or without the binding cookie)
    const second = await toCallback(jar);
    const other = await login('other-admin@example.com');
    other.set('basin_oauth_bind', jar.get('basin_oauth_bind')!);
    const foreign = await get(second.callback, other);
    assert.equal(landing(foreign).searchParams.get('oauth_error'), 'oauth_session_mismatch');
    // and the state is spent: the rightful session cannot reuse it either
    assert.equal(landing(await get(second.callback, jar)).searchParams.get('oauth_error'), 'oauth_state_invalid');

    // the same session in a browser without the binding cookie
    const third = await toCallback(jar);
    const noCookie = new Map(jar);
    noCookie.delete('basin_oauth_bind');
    assert.equal(landing(await get(third.callback, noCookie)).searchParams.get('oauth_error'), 'oauth_session_mismatch');

    const fourth = await toCallback(jar);
    clock.advance(601_000);
    assert.equal(landing(await get(fourth.callback, jar)).searchParams.get('oauth_error'), 'oauth_state_expired');

    const bogus = await get(`${basin}/oauth/callback/oauth_test?code=x&state=made-up`, jar);
    assert.equal(landing(bogus).searchParams.get('oauth_error'), 'oauth_state_invalid');
    const audit = auth.audit.list(200, 0).items.filter((i) => i.action === 'oauth.connect' && i.outcome === 'failure');
    assert.ok(audit.length >= 4);
  });

  test('editors cannot connect or see connections; connecting needs a public URL', async () => {
    const jar = await login('editor@example.com');
    assert.equal((await get(`${basin}/oauth/connect/oauth_test`, jar)).status, 403);
    assert.equal((await api(jar, 'GET', '/api/secrets/oauth')).status, 403);
    assert.equal((await api(jar, 'DELETE', '/api/secrets/oauth/oauth_test')).status, 403);
    const admin = await login('admin@example.com');
    const envFile = path.join(dir, '.env');
    const saved = fs.readFileSync(envFile, 'utf8');
    fs.writeFileSync(envFile, saved.replace(/^BASIN_PUBLIC_URL=.*\n/m, ''));
    const res = await get(`${basin}/oauth/connect/oauth_test`, admin);
    assert.equal(res.status, 400);
    assert.equal(((await res.json()) as any).error.code, 'oauth_public_url_required');
    fs.writeFileSync(envFile, saved.replace(/^OAUTH_TEST_CLIENT_SECRET=.*\n/m, ''));
    const noClient = await get(`${basin}/oauth/connect/oauth_test`, admin);
    const body = (await noClient.json()) as any;
    assert.equal(body.error.code, 'oauth_client_missing');
    assert.deepEqual(body.error.details.missing, ['OAUTH_TEST_CLIENT_SECRET']);
    fs.writeFileSync(envFile, saved);
    assert.equal((await get(`${basin}/oauth/connect/stripe_nope`, admin)).status, 404);
  });

  test('disconnect deletes the tokens; the next sync says to reconnect', async () => {
    const jar = await login('admin@example.com');
    const del = await api(jar, 'DELETE', '/api/secrets/oauth/oauth_test');
    assert.equal(del.status, 200);
    const s = (await api(jar, 'GET', '/api/secrets/oauth')).body.find((x: { source_type: string }) => x.source_type === 'oauth_test');
    assert.equal(s.connected, false);
    assert.equal(s.state, 'not_connected');
    assert.equal((app.resolve(coreServices.stateDb).prepare('SELECT count(*) AS n FROM oauth_connections').get() as { n: number }).n, 0);
    const rec = await app.resolve(syncEngineRef).run('profile');
    assert.equal(rec.status, 'failed');
    assert.match(JSON.stringify(rec), /oauth\/connect\/oauth_test/);
    assert.equal((await api(jar, 'DELETE', '/api/secrets/oauth/oauth_test')).status, 404);
    assert.ok(auth.audit.list(200, 0).items.some((i) => i.action === 'oauth.disconnect' && i.target === 'oauth_test'));
  });
});
