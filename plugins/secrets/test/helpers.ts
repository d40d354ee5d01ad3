import { ManualClock, type BasinApp, type BasinPlugin, type Role } from '@basin/core';
import authPlugin, { type AuthService } from '@basin/plugin-auth';
import { bootApp, makeProject } from '@basin/test';
import secretsPlugin from '../src/index.js';

export const XHR = { 'x-requested-with': 'XMLHttpRequest' } as const;

export interface SecretsTestApp {
  dir: string;
  app: BasinApp;
  auth: AuthService;
  clock: ManualClock;
  /** an API key per role */
  keys: Record<Role, string>;
  /** session cookies per role */
  cookies: Record<Role, string>;
}

/** A project booted with the auth and secrets plugins and one user (key and session) per role. */
export async function bootSecrets(files: Record<string, string> = {}, extraPlugins: BasinPlugin[] = []): Promise<SecretsTestApp> {
  const dir = makeProject(files);
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const app = await bootApp(dir, { clock, plugins: [authPlugin, secretsPlugin, ...extraPlugins] });
  const auth = app.container.resolve<AuthService>('auth');
  const keys = {} as Record<Role, string>;
  const cookies = {} as Record<Role, string>;
  for (const role of ['admin', 'editor', 'viewer'] as const) {
    const u = await auth.addUserWithPassword({ id: null, email: 'test', ip: null }, `${role}@example.com`, role, 'a long test password');
    keys[role] = auth.keys.create(u.id, 'test', null).key;
    const res = await app.http.inject({ method: 'POST', url: '/api/auth/login', headers: XHR, payload: { email: `${role}@example.com`, password: 'a long test password' }, remoteAddress: '127.0.0.1' });
    const c = res.cookies.find((x) => x.name === 'basin_session');
    if (!c) throw new Error(`login failed ${res.statusCode} ${res.body}`);
    cookies[role] = `basin_session=${c.value}`;
  }
  return { dir, app, auth, clock, keys, cookies };
}

export const bearer = (key: string) => ({ authorization: `Bearer ${key}` });
