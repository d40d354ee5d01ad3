import fs from 'node:fs';
import { defineConfig } from 'tsup';
import type { Plugin } from 'esbuild';
import { vendored } from '../scripts/lib/tsup-vendor.mjs';

const base = vendored();
// fastify and the parts of it core imports come from one bundle (src/vendor/http.ts), through the
// small shims in vendor/*.cjs
const http = ['fastify', '@fastify/cookie', '@fastify/swagger', '@fastify/swagger-ui', '@fastify/ajv-compiler', 'find-my-way'];
const shim = (name: string) => `@basin/core/vendor/${name.replace(/^@fastify\//, '')}`;

/**
 * An esbuild plugin that rewrites one file of a dependency as the bundle is built: `patch` gets its
 * text. When `expected` no longer holds (a release changed the lines the patch relies on) the build
 * fails, saying what the file `noLonger` does.
 */
function patchDependency(name: string, filter: RegExp, noLonger: string, expected: (text: string) => boolean, patch: (text: string) => string): Plugin {
  return {
    name,
    setup(build) {
      build.onLoad({ filter }, (args) => {
        const text = fs.readFileSync(args.path, 'utf8');
        if (!expected(text)) throw new Error(`${args.path} no longer ${noLonger} as core/tsup.config.ts expects; update the plugin`);
        return { contents: patch(text), loader: 'js' };
      });
    },
  };
}

// fastify's server module requires node:https and node:http2 when it loads, for servers Basin never makes
// (it serves plain HTTP/1.1): they cost ~4 ms and ~1.5 MB at every start. In the bundle they are required
// when fastify would create such a server. A fastify release that changes these lines fails the build.
const eagerServerModules = "const https = require('node:https')\nconst http2 = require('node:http2')\n";
const lazyServerModules = patchDependency(
  'fastify-lazy-https-http2',
  /[\\/]fastify[\\/]lib[\\/]server\.js$/,
  'requires node:https and node:http2',
  (text) => text.includes(eagerServerModules),
  (text) =>
    text.replace(
      eagerServerModules,
      "const https = { createServer: (...a) => require('node:https').createServer(...a) }\n" +
        "const http2 = { createServer: (...a) => require('node:http2').createServer(...a), createSecureServer: (...a) => require('node:http2').createSecureServer(...a) }\n",
    ),
);

// find-my-way compiles a `new Function` for every static node's prefix as the route tree grows (and
// again for each node a later route splits): ~300 of them for Basin's ~230 routes, ~17 ms of every
// start, though most prefixes are never looked up before the server is listening. In the bundle each
// node compiles its matcher on its first lookup, the same function, and keeps it. A find-my-way release
// that changes these lines fails the build.
const eagerPrefixMatcher =
  "  const lines = []\n  for (let i = 1; i < prefix.length; i++) {\n    const charCode = prefix.charCodeAt(i)\n    lines.push(`path.charCodeAt(i + ${i}) === ${charCode}`)\n  }\n  return new Function('path', 'i', `'use strict'\\nreturn ${lines.join(' && ')}`) // eslint-disable-line\n";
const lazyPrefixMatchers = patchDependency(
  'find-my-way-lazy-prefix-matchers',
  /[\\/]find-my-way[\\/]lib[\\/]node\.js$/,
  'compiles prefix matchers',
  (text) => text.includes(eagerPrefixMatcher) && text.includes('staticChild.matchPrefix(path, pathIndex)'),
  (text) =>
    text.replace(
      eagerPrefixMatcher,
      '  return function matchPrefixOnFirstUse (path, i) {\n' +
        '    const lines = []\n' +
        '    for (let j = 1; j < prefix.length; j++) lines.push(`path.charCodeAt(i + ${j}) === ${prefix.charCodeAt(j)}`)\n' +
        "    const compiled = new Function('path', 'i', `'use strict'\\nreturn ${lines.join(' && ')}`) // eslint-disable-line\n" +
        '    if (this.matchPrefix === matchPrefixOnFirstUse) this.matchPrefix = compiled\n' +
        '    return compiled(path, i)\n' +
        '  }\n',
    ),
);

// find-my-way also compiles two `new Function`s per route handler as it is added: one that builds the
// params object and one that matches constraints (Basin sets none, so it never runs). With fastify's
// HEAD routes that is ~900 compilations, ~10 ms of every start. In the bundle each compiles on its first
// use, the same functions, kept once compiled. A find-my-way release that changes these lines fails the
// build.
const eagerParams = '      _createParamsObject: this._compileCreateParamsObject(params)\n';
const eagerConstraints = '    if (!isMergedTree) {\n      this._compileGetHandlerMatchingConstraints(constrainer, constraints)\n    }\n';
const handlerStorageClass = 'class HandlerStorage {\n';
const lazyHandlerFunctions = patchDependency(
  'find-my-way-lazy-handler-functions',
  /[\\/]find-my-way[\\/]lib[\\/]handler-storage\.js$/,
  'compiles its handler functions',
  (text) => [eagerParams, eagerConstraints, handlerStorageClass, 'return this._getHandlerMatchingConstraints(derivedConstraints)'].every((t) => text.includes(t)),
  (text) => {
    const lazyParams = '      _createParamsObject: createParamsObjectOnFirstUse(this, params)\n';
    const lazyConstraints =
      '    if (!isMergedTree) {\n' +
      '      this._getHandlerMatchingConstraints = function matchConstraintsOnFirstUse (derivedConstraints) {\n' +
      '        this._compileGetHandlerMatchingConstraints(constrainer, constraints)\n' +
      '        return this._getHandlerMatchingConstraints(derivedConstraints)\n' +
      '      }\n' +
      '    }\n';
    const helper =
      'function createParamsObjectOnFirstUse (storage, params) {\n' +
      '  return function createParamsObject (param0, param1, param2, param3, extraParams) {\n' +
      '    const compiled = storage._compileCreateParamsObject(params)\n' +
      '    if (this._createParamsObject === createParamsObject) this._createParamsObject = compiled\n' +
      '    return compiled(param0, param1, param2, param3, extraParams)\n' +
      '  }\n' +
      '}\n\n';
    return text.replace(eagerParams, lazyParams).replace(eagerConstraints, lazyConstraints).replace(handlerStorageClass, helper + handlerStorageClass);
  },
);

// fastify adds every route's settings through an avvio `after` of its own: ~460 queue entries, each an
// avvio plugin with a queue of its own, loaded one after another (an avvio microbench of 460 routes:
// `ready` 49-64 ms, 21-32 ms without). In the bundle, routes added one after another, with nothing
// else queued between them, share one `after` that runs their callbacks in the same order, at the
// place the first one's would have run. The next would have run right behind it, so each callback sees
// what it saw before. A fastify release that changes these lines fails the build.
const eagerRouteAfter = '      this.after((notHandledErr, done) => {\n        // Send context async\n';
const sharedRouteAfters = patchDependency(
  'fastify-shared-route-afters',
  /[\\/]fastify[\\/]lib[\\/]route\.js$/,
  "adds a route's settings in one avvio after",
  (text) => text.split(eagerRouteAfter).length === 2 && text.includes('        done(notHandledErr)\n      })\n') && text.includes('      avvio = fastifyArgs.avvio\n'),
  (text) => {
    const shared = '      afterRouteAdded(this, avvio, (notHandledErr, done) => {\n        // Send context async\n';
    const helper =
      '\n// Basin (core/tsup.config.ts): one avvio `after` for routes added one after another\n' +
      "const kRouteAfters = Symbol('basin.routeAfters')\n" +
      'function lastQueued (plugin) {\n' +
      '  const queued = plugin.queue.getQueue()\n' +
      '  return queued[queued.length - 1]\n' +
      '}\n' +
      'function afterRouteAdded (instance, avvio, fn) {\n' +
      '  const current = avvio._current[0]\n' +
      '  const open = current[kRouteAfters]\n' +
      '  // still waiting in the queue, as its last entry: this callback would have been queued right behind it\n' +
      '  if (open && !open.started && lastQueued(current) === open.entry) {\n' +
      '    open.fns.push(fn)\n' +
      '    return\n' +
      '  }\n' +
      '  const batch = { fns: [fn], started: false, entry: null }\n' +
      '  instance.after((notHandledErr, done) => {\n' +
      '    batch.started = true\n' +
      '    let err = notHandledErr\n' +
      '    for (const f of batch.fns) f(err, (e) => { err = e })\n' +
      '    done(err)\n' +
      '  })\n' +
      '  batch.entry = lastQueued(current)\n' +
      '  current[kRouteAfters] = batch\n' +
      '}\n';
    return text.replace(eagerRouteAfter, shared) + helper;
  },
);

export default defineConfig([
  {
    entry: { index: 'src/index.ts', 'cli-entry': 'src/cli-entry.ts', 'vendor/typebox': 'src/vendor/typebox.ts', 'vendor/typebox-value': 'src/vendor/typebox-value.ts' },
    format: ['esm'],
    target: 'node20',
    // the CommonJS bundles below are written beside, in the same build
    clean: ['!vendor/*.cjs', '!vendor/*.cjs.map'],
    sourcemap: true,
    ...base,
    noExternal: [...(base.noExternal ?? []), ...http, '@fastify/http-proxy', '@duckdb/node-api', 'commander'],
    esbuildOptions(options, ctx) {
      base.esbuildOptions?.(options, ctx);
      // @fastify/http-proxy is imported on a proxy's first request (src/http/lazy-proxy.ts): its bundle too;
      // @duckdb/node-api when the warehouse opens: its bundle (src/vendor/duckdb.ts)
      options.alias = { ...options.alias, ...Object.fromEntries([...http, '@fastify/http-proxy'].map((n) => [n, shim(n)])), '@duckdb/node-api': '@basin/core/vendor/duckdb', commander: '@basin/core/vendor/commander' };
    },
  },
  // yaml, awilix and dotenv as one CommonJS file each: required synchronously on first use (lazy-deps.ts)
  // (minified: V8 keeps a module's source in memory for as long as its functions may be compiled; the
  // source maps beside them map stack traces back)
  { entry: { 'vendor/yaml': 'src/vendor/yaml.ts', 'vendor/awilix': 'src/vendor/awilix.ts', 'vendor/dotenv': 'src/vendor/dotenv.ts' }, format: ['cjs'], target: 'node20', clean: false, sourcemap: true, minify: true, noExternal: ['yaml', 'awilix', 'dotenv'], esbuildOptions: base.esbuildOptions },
  // commander the same way, for every CLI command: loaded at once with its code cache (vendor/commander.cjs)
  { entry: { 'vendor/commander': 'src/vendor/commander.ts' }, format: ['cjs'], target: 'node20', clean: false, sourcemap: true, minify: true, noExternal: ['commander'], esbuildOptions: base.esbuildOptions },
  // @duckdb/node-api as one CommonJS file (~180 modules otherwise), loaded when the warehouse opens;
  // the native addon it requires stays a package of its own
  {
    entry: { 'vendor/duckdb': 'src/vendor/duckdb.ts' },
    format: ['cjs'],
    target: 'node20',
    clean: false,
    sourcemap: true,
    minify: true,
    noExternal: ['@duckdb/node-api'],
    external: ['@duckdb/node-bindings'],
    esbuildOptions(options) {
      options.charset = 'ascii';
    },
  },
  // fastify's parts as one CommonJS file, @fastify/http-proxy as another; @fastify/swagger's own
  // `require('yaml')` gets core's copy above
  {
    entry: { 'vendor/http': 'src/vendor/http.ts', 'vendor/http-proxy': 'src/vendor/http-proxy.ts' },
    format: ['cjs'],
    target: 'node20',
    clean: false,
    sourcemap: true,
    minify: true,
    noExternal: ['yaml', ...http, '@fastify/http-proxy'],
    esbuildPlugins: [lazyServerModules, lazyPrefixMatchers, lazyHandlerFunctions, sharedRouteAfters],
    esbuildOptions(options) {
      options.charset = 'ascii';
      options.alias = { ...options.alias, yaml: '@basin/core/yaml' };
      options.external = [...(options.external ?? []), '@basin/*'];
    },
  },
]);
