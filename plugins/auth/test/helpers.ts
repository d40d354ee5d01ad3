import { ManualClock, type BasinApp, type Role } from '@basin/core';
import { bootApp, makeProject } from '@basin/test';
import type { LightMyRequestResponse } from 'fastify';
import authPlugin, { type AuthService } from '../src/index.js';

export const XHR = { 'x-requested-with': 'XMLHttpRequest' } as const;
export const PASSWORD = 'correct horse battery staple';

export interface AuthTestApp {
  dir: string;
  app: BasinApp;
  auth: AuthService;
  clock: ManualClock;
}

/** A fresh project booted with only the auth plugin (other plugins are not needed to test auth itself). */
export async function bootAuth(files: Record<string, string> = {}, authYaml = ''): Promise<AuthTestApp> {
  const dir = makeProject(files);
  if (authYaml) {
    const fs = await import('node:fs');
    const f = `${dir}/.basin/project.yml`;
    fs.writeFileSync(f, fs.readFileSync(f, 'utf8').replace(/auth:\n  enabled: true\n/, `auth:\n  enabled: true\n${authYaml}`));
  }
  const clock = new ManualClock('2026-03-01T12:00:00Z');
  const app = await bootApp(dir, { clock, plugins: [authPlugin] });
  return { dir, app, auth: app.container.resolve<AuthService>('auth'), clock };
}

export async function addUser(auth: AuthService, email: string, role: Role, password = PASSWORD) {
  return auth.addUserWithPassword({ id: null, email: 'test', ip: null }, email, role, password);
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'basin_session');
  if (!c) throw new Error(`no session cookie in response ${res.statusCode} ${res.body}`);
  return `basin_session=${c.value}`;
}

export async function login(app: BasinApp, email: string, password = PASSWORD, remoteAddress = '127.0.0.1') {
  const res = await app.http.inject({ method: 'POST', url: '/api/auth/login', headers: XHR, payload: { email, password }, remoteAddress });
  return res;
}

export async function loginCookie(app: BasinApp, email: string, password = PASSWORD): Promise<string> {
  const res = await login(app, email, password);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return sessionCookie(res);
}
