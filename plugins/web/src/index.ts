import fs from 'node:fs';
import path from 'node:path';
import { coreServices, definePlugin, errors, resolveInside, type UiPage } from '@basin/core';
import { PAGE_ROUTES, uiAssets } from '@basin/ui';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

/** the URL a page module is served at: its folder is /ui/ext/<n>/, so its relative imports resolve there too */
const moduleUrl = (p: UiPage, i: number): string | null => (p.file ? `/ui/ext/${i}/${path.basename(p.file)}` : (p.module ?? null));

/**
 * Serves the UI: the app shell for every HTML page route, its modules under /ui/, the page modules the
 * plugins contribute (ctx.page) and the vendor files (preact/htm from node_modules, the kept libraries
 * bundled at build time). Pages are public shells; their data comes from guarded APIs.
 */
export default definePlugin({
  name: 'web',
  register(ctx) {
    const { publicDir, vendor } = uiAssets();
    const shell = fs.readFileSync(path.join(publicDir, 'index.html'));
    const headers = { 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'", 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' };
    const sendShell = async (_req: unknown, reply: any) => reply.headers(headers).type('text/html; charset=utf-8').send(shell);

    for (const url of PAGE_ROUTES) ctx.routes.get(url, { permission: 'public', schema: { hide: true } }, sendShell);
    // pages contributed by plugins through ctx.page(); the shell builds its navigation and routes from them
    ctx.routes.get('/api/ui/pages', { permission: 'public', schema: { summary: 'UI pages contributed by plugins (navigation entries the caller may see, and every page route)' } }, async (req) => {
      const perms = req.principal?.permissions;
      return ctx
        .resolve(coreServices.pages)
        .map((p, i) => ({
          path: p.path,
          title: p.title,
          module: moduleUrl(p, i),
          section: p.section ?? 'Extensions',
          order: p.order ?? 100,
          layout: p.layout ?? 'app',
          // a page is always routable (its API refuses what the role may not do); the nav lists only what the role may use
          nav: p.nav !== false && (!p.permission || !perms || perms.has(p.permission)),
        }));
    });
    ctx.afterRegister(() => {
      for (const p of ctx.resolve(coreServices.pages)) {
        if (!(PAGE_ROUTES as readonly string[]).includes(p.path)) ctx.routes.get(p.path, { permission: 'public', schema: { hide: true } }, sendShell);
      }
    });

    ctx.routes.get('/ui/vendor/:file', { permission: 'public', schema: { hide: true } }, async (req, reply) => {
      const name = req.params.file as string;
      const file = vendor[name];
      if (!file) throw errors.notFound('UI file');
      if (!fs.existsSync(file)) throw errors.notFound(`UI vendor bundle ${name} (build the UI first: npm run build -w @basin/ui)`);
      return reply.type(TYPES[path.extname(name)] ?? TYPES['.js']!).header('cache-control', 'public, max-age=86400').send(fs.createReadStream(file));
    });
    ctx.routes.get('/ui/ext/:n/*', { permission: 'public', schema: { hide: true } }, async (req, reply) => {
      const page = ctx.resolve(coreServices.pages)[Number((req.params as Record<string, string>).n)];
      if (!page?.file) throw errors.notFound('UI page module');
      const file = resolveInside(path.dirname(page.file), (req.params as Record<string, string>)['*'] ?? '');
      if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) throw errors.notFound('UI page module');
      return reply.headers(headers).type(TYPES[path.extname(file)] ?? 'application/octet-stream').send(fs.createReadStream(file));
    });
    ctx.routes.get('/ui/*', { permission: 'public', schema: { hide: true } }, async (req, reply) => {
      const rel = (req.params as Record<string, string>)['*'] ?? '';
      const file = resolveInside(publicDir, rel);
      if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) throw errors.notFound('UI file');
      return reply.headers(headers).type(TYPES[path.extname(file)] ?? 'application/octet-stream').send(fs.createReadStream(file));
    });
  },
});
