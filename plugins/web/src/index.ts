import fs from 'node:fs';
import path from 'node:path';
import { coreServices, definePlugin, errors, resolveInside, type BasinRequest, type Handler, type UiPage } from '@basin/core';

type Reply = Parameters<Handler>[1];
import { PAGE_ROUTES, uiAssets } from '@basin/ui';
import { Type } from '@sinclair/typebox';

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
    const shell = fs.readFileSync(path.join(publicDir, 'index.html'), 'utf8');
    const headers = { 'content-security-policy': "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'", 'x-content-type-options': 'nosniff', 'referrer-policy': 'same-origin' };
    /** the pages the caller's navigation lists (and every page route), as GET /api/ui/pages answers */
    const pagesFor = (perms: ReadonlySet<string> | undefined) =>
      ctx.resolve(coreServices.pages).map((p, i) => ({
        path: p.path,
        title: p.title,
        module: moduleUrl(p, i),
        section: p.section ?? 'Extensions',
        order: p.order ?? 100,
        layout: p.layout ?? 'app',
        // a page is always routable (its API refuses what the role may not do); the nav lists only what the role may use
        nav: p.nav !== false && (!p.permission || !perms || perms.has(p.permission)),
      }));
    /** a page module and the other modules of its folder (its imports), so the browser fetches them at once */
    const preloads = (module: string): string[] => {
      const m = /^\/ui\/ext\/(\d+)\//.exec(module);
      const page = m ? ctx.resolve(coreServices.pages)[Number(m[1])] : undefined;
      if (!m || !page?.file) return [module];
      const siblings = fs.readdirSync(path.dirname(page.file)).filter((f) => f.endsWith('.js') && f !== path.basename(page.file!));
      return [module, ...siblings.map((f) => `/ui/ext/${m[1]}/${f}`)];
    };
    // the shell carries the page list and preloads the page's own module: one round trip less before the page renders
    const sendShell = async (req: BasinRequest, reply: Reply) => {
      const pages = pagesFor(req.principal?.permissions);
      const here = (req.url.split('?')[0] ?? '/').replace(/\/+$/, '') || '/';
      const match = pages.find((p) => p.module && new RegExp(`^${p.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}$`).test(here));
      const boot = `<script type="application/json" id="basin-pages">${JSON.stringify(pages).replace(/</g, '\\u003c')}</script>${match?.module ? preloads(match.module).map((u) => `\n  <link rel="modulepreload" href="${u}">`).join('') : ''}`;
      return reply.headers(headers).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(shell.replace('<!--basin:boot-->', boot));
    };
    /** static files: revalidated by ETag (size and mtime), so a navigation costs a 304 instead of the file */
    const sendFile = (req: BasinRequest, reply: Reply, file: string, type: string, extra: Record<string, string> = {}) => {
      const st = fs.statSync(file);
      const etag = `W/"${st.size.toString(16)}-${Math.floor(st.mtimeMs).toString(16)}"`;
      reply.headers({ ...headers, ...extra, etag }).type(type);
      if (!extra['cache-control']) reply.header('cache-control', 'no-cache');
      if (req.headers['if-none-match'] === etag) return reply.code(304).send();
      return reply.send(fs.createReadStream(file));
    };

    for (const url of PAGE_ROUTES) ctx.routes.get(url, { permission: 'public', schema: { hide: true } }, sendShell);
    // pages contributed by plugins through ctx.page(); the shell builds its navigation and routes from them
    ctx.routes.get('/api/ui/pages', { permission: 'public', schema: { summary: 'UI pages contributed by plugins (navigation entries the caller may see, and every page route)' } }, async (req) => pagesFor(req.principal?.permissions));
    ctx.afterRegister(() => {
      const served = new Set<string>(PAGE_ROUTES);
      for (const p of ctx.resolve(coreServices.pages)) {
        if (served.has(p.path)) continue;
        served.add(p.path);
        ctx.routes.get(p.path, { permission: 'public', schema: { hide: true } }, sendShell);
      }
    });

    ctx.routes.get('/ui/vendor/:file', { permission: 'public', schema: { hide: true, params: Type.Object({ file: Type.String() }) } }, async (req, reply) => {
      const name = req.params.file;
      const file = vendor[name];
      if (!file) throw errors.notFound('UI file');
      if (!fs.existsSync(file)) throw errors.notFound(`UI vendor bundle ${name} (build the UI first: npm run build -w @basin/ui)`);
      return sendFile(req, reply, file, TYPES[path.extname(name)] ?? TYPES['.js']!, { 'cache-control': 'public, max-age=86400' });
    });
    ctx.routes.get('/ui/ext/:n/*', { permission: 'public', schema: { hide: true, params: Type.Object({ n: Type.String(), '*': Type.String() }) } }, async (req, reply) => {
      const page = ctx.resolve(coreServices.pages)[Number(req.params.n)];
      if (!page?.file) throw errors.notFound('UI page module');
      const file = resolveInside(path.dirname(page.file), req.params['*']);
      if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) throw errors.notFound('UI page module');
      return sendFile(req, reply, file, TYPES[path.extname(file)] ?? 'application/octet-stream');
    });
    ctx.routes.get('/ui/*', { permission: 'public', schema: { hide: true, params: Type.Object({ '*': Type.String() }) } }, async (req, reply) => {
      const rel = req.params['*'];
      const file = resolveInside(publicDir, rel);
      if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) throw errors.notFound('UI file');
      return sendFile(req, reply, file, TYPES[path.extname(file)] ?? 'application/octet-stream');
    });
  },
});
