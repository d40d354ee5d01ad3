import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import { coreServices, createServiceRef, definePlugin, coreErrors } from '@basin/core';
import { BasinAuthenticator } from './authenticator.js';
import { registerAuthCommands } from './cli.js';
import { AuthSection } from './config.js';
import { openAuthDb } from './db.js';
import { OidcLogin } from './oidc.js';
import { RateLimiter } from './rate-limit.js';
import { installRequestGuard } from './request-guard.js';
import { registerAdminRoutes } from './routes/admin-routes.js';
import { registerAuthRoutes } from './routes/auth-routes.js';
import { RouteContext } from './routes/context.js';
import { registerOAuthRoutes } from './routes/oauth-routes.js';
import { registerTwoFactorRoutes } from './routes/two-factor-routes.js';
import { authRef, authPermissions } from './contract.js';
import { AuthService } from './service.js';
import { authErrors } from './errors.js';

/** a page module of this plugin (served by the web plugin with its folder, ctx.page) */
const uiFile = (name: string): string => fileURLToPath(new URL(`../ui/${name}`, import.meta.url));

export { AuthSection, CLOUD_SESSION_DEFAULTS } from './config.js';
export { AuthService } from './service.js';
export { BasinAuthenticator, SESSION_COOKIE } from './authenticator.js';
export { hashPassword, verifyPassword, checkPasswordPolicy } from './passwords.js';
export { openCliService } from './cli.js';
export * from './contract.js';

/** the login and API rate limiter (this plugin's own) */
const rateLimiterRef = createServiceRef<RateLimiter>({ id: 'rateLimiter' });

export default definePlugin({
  name: 'auth',
  permissions: Object.values(authPermissions),
  configSections: [{ section: 'auth', schema: AuthSection }],
  commands: registerAuthCommands,
  register(ctx) {
    ctx.page({ path: '/login', title: 'Sign in', nav: false, layout: 'bare', file: uiFile('login.js') });
    ctx.page({ path: '/setup', title: 'Set up', nav: false, layout: 'bare', file: uiFile('setup.js') });
    ctx.page({ path: '/invite/:token', title: 'Invite', nav: false, layout: 'bare', file: uiFile('invite.js') });
    ctx.page({ path: '/settings/account', title: 'Account', section: 'Settings', order: 10, file: uiFile('account.js') });
    ctx.page({ path: '/settings/users', title: 'Users', permission: 'users.manage', section: 'Settings', order: 20, file: uiFile('users.js') });
    const db = openAuthDb(ctx.config.resolve('.basin', 'auth.db'));
    const auth = new AuthService(db, ctx.config, ctx.clock, ctx.events);
    const authn = new BasinAuthenticator(auth, ctx.resolve(coreServices.permissions));
    const limiter = new RateLimiter(() => ctx.clock.now().getTime());
    ctx.provide(authRef, auth);
    ctx.provide(coreServices.authenticator, authn);
    ctx.provide(rateLimiterRef, limiter);
    ctx.events.declare('auth_logout');

    installRequestGuard(ctx.http, auth, authn, limiter);
    ctx.errorsOnEveryRoute([coreErrors.csrf_rejected], ['POST', 'PUT', 'PATCH', 'DELETE']);
    const rc = new RouteContext(auth, authn);
    registerAuthRoutes(ctx, rc);
    registerTwoFactorRoutes(ctx, rc);
    registerAdminRoutes(ctx, rc);
    registerOAuthRoutes(ctx, rc, new OidcLogin(() => auth.settings().oauth_providers));

    // first admin: a one-time link while the project has no users (a new one each start; only its hash
    // is kept), printed once the server listens so it names the address it really answers on
    ctx.http.addHook('onListen', async () => {
      if (!auth.settings().enabled) return;
      const setup = auth.issueSetupToken();
      if (!setup) return;
      process.stdout.write(`\nBasin has no users yet. Create the first admin within 72 hours at:\n  ${setupUrl(ctx.http.server.address(), setup.token)}\n(or run: basin users add EMAIL --role admin --password-stdin)\n\n`);
      ctx.log.warn('No users yet: open the one-time setup link printed on the console to create the first admin.');
    });
    ctx.onStop(() => {
      db.close();
    });
  },
});

/** The setup link for the address the server listens on (wildcard addresses become the loopback name). */
export function setupUrl(address: string | AddressInfo | null, token: string): string {
  const a = typeof address === 'object' && address ? address : { address: '127.0.0.1', port: 8800, family: 'IPv4' };
  const host = a.address === '0.0.0.0' || a.address === '::' ? 'localhost' : a.family === 'IPv6' ? `[${a.address}]` : a.address;
  return `http://${host}:${a.port}/setup?token=${token}`;
}
