import fs from 'node:fs';
import path from 'node:path';
import { coreServices, definePlugin, errors, resolveInside } from '@basin/core';
import { PAGE_ROUTES, uiAssets } from '@basin/ui';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.map': 'application/json',
};

/**
 * Serves the UI: the app shell for every HTML page route, its modules under /ui/, and the preact/htm
 * vendor files from node_modules (no CDN). Pages are public shells; their data comes from guarded APIs.
 */
export default definePlugin({
  name: 'web',
  register(ctx) {
    const { publicDir, vendor } = uiAssets();
    const shell = fs.readFileSync(path.join(publicDir, 'index.html'));
    const headers = { 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'", 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' };

    for (const url of PAGE_ROUTES) {
      ctx.routes.get(url, { permission: 'public', schema: { hide: true } }, async (_req, reply) => reply.headers(headers).type('text/html; charset=utf-8').send(shell));
    }
    // pages contributed by plugins through ctx.page(); the shell adds them to its navigation
    ctx.routes.get('/api/ui/pages', { permission: 'public', schema: { summary: 'UI pages contributed by plugins' } }, async (req) => {
      const perms = req.principal?.permissions;
      return ctx
        .resolve(coreServices.pages)
        .map((p, i) => ({ p, i }))
        .filter(({ p }) => p.nav !== false && (!p.permission || !perms || perms.has(p.permission)))
        .map(({ p, i }) => ({ path: p.path, title: p.title, module: p.file ? `/ui/ext/${i}.js` : (p.module ?? null) }));
    });
    ctx.afterRegister(() => {
      for (const p of ctx.resolve(coreServices.pages)) {
        if (!(PAGE_ROUTES as readonly string[]).includes(p.path)) ctx.routes.get(p.path, { permission: 'public', schema: { hide: true } }, async (_req, reply) => reply.headers(headers).type('text/html; charset=utf-8').send(shell));
      }
    });

    ctx.routes.get('/ui/vendor/:file', { permission: 'public', schema: { hide: true } }, async (req, reply) => {
      const file = vendor[req.params.file as string];
      if (!file) throw errors.notFound('UI file');
      return reply.type(TYPES['.js']!).header('cache-control', 'public, max-age=86400').send(fs.createReadStream(file));
    });
    ctx.routes.get('/ui/ext/:n.js', { permission: 'public', schema: { hide: true } }, async (req, reply) => {
      const page = ctx.resolve(coreServices.pages)[Number(req.params.n)];
      if (!page?.file) throw errors.notFound('UI page module');
      return reply.headers(headers).type(TYPES['.js']!).send(fs.createReadStream(page.file));
    });
    ctx.routes.get('/ui/*', { permission: 'public', schema: { hide: true } }, async (req, reply) => {
      const rel = (req.params as Record<string, string>)['*'] ?? '';
      const file = resolveInside(publicDir, rel);
      if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) throw errors.notFound('UI file');
      return reply.headers(headers).type(TYPES[path.extname(file)] ?? 'application/octet-stream').send(fs.createReadStream(file));
    });
  },
});
