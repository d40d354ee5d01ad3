// Builds dist/plugins.cjs: the built-in plugins' main entries (plugins/*/dist) as ONE CommonJS file,
// which core loads through its code-cache loader (core/vendor/load-bundle.cjs) instead of ~50 ES
// modules that Node 20 compiles from scratch at every start (issue 19: `basin start` spent ~60 ms of
// its CPU resolving, linking and compiling them). The ES builds stay what they are; this file is a
// faster way to load the same code, used when it matches them (core/src/plugin/prebuilt.ts).
//
// What stays outside, so that every process has ONE instance of each module another package imports:
// - every package import (`@basin/core`, `@basin/sdk`, `@basin/ui`, npm packages): required at run
//   time; Node 20.19+ require()s an ES module from the same module map its `import` uses;
// - a plugin's other entries (`./contract`) and every file they import (a chunk a contract shares with
//   the plugin's index): required by path, so a contract's service refs are the same objects whether
//   another plugin imports them or the plugin itself does;
// - a plugin whose entry cannot be CommonJS (a top-level await; none today): loaded as an ES module.
// Each file's `import.meta.url` keeps naming the file it was built as, so paths relative to it (UI
// pages, child scripts, SQL) resolve as before. An `import()` becomes a `require()` inside a promise
// (see `supported`). dist/plugins.json lists every built file of the bundled plugins, with its size and
// hash: core uses the bundle only while they are unchanged.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = path.dirname(fileURLToPath(import.meta.url));
const pkgDir = path.resolve(here, '..');
const root = path.resolve(pkgDir, '..');
const outDir = path.join(pkgDir, 'dist');
const outFile = path.join(outDir, 'plugins.cjs');
const manifestFile = path.join(outDir, 'plugins.json');
/** a path as the bundle and its manifest name it: relative to dist/, with forward slashes */
const rel = (f) => path.relative(outDir, f).split(path.sep).join('/');

/** the plugins/* packages, each with its main entry and its other entries (built files) */
function readPlugins() {
  const deps = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8')).devDependencies ?? {};
  const out = [];
  for (const d of fs.readdirSync(path.join(root, 'plugins')).sort()) {
    const dir = path.join(root, 'plugins', d);
    const pjFile = path.join(dir, 'package.json');
    if (!fs.existsSync(pjFile)) continue;
    const pj = JSON.parse(fs.readFileSync(pjFile, 'utf8'));
    if (!pj.basin) continue;
    // turbo builds this package after the ones it depends on: a plugin missing here could be built after it
    if (!deps[pj.name]) throw new Error(`${pj.name} is not a devDependency of @basin/runtime: add "${pj.name}": "${pj.version}" to runtime/package.json`);
    const exps = typeof pj.exports === 'string' ? { '.': pj.exports } : (pj.exports ?? {});
    const built = (e) => {
      const f = typeof e === 'string' ? e : (e?.default ?? e?.import);
      return typeof f === 'string' && f.endsWith('.js') ? path.join(dir, f) : null;
    };
    const main = built(exps['.']);
    if (!main) continue;
    if (!fs.existsSync(main)) throw new Error(`${pj.name} is not built (${path.relative(root, main)} is missing); run "npm run build"`);
    const others = Object.entries(exps).filter(([k]) => k !== '.').map(([, e]) => built(e)).filter((f) => f && fs.existsSync(f));
    out.push({ name: pj.name, dir, main, others });
  }
  return out;
}

/** the files each of `entries` imports, itself included (their static graph inside the package) */
async function graphOf(entries) {
  if (!entries.length) return [];
  const r = await esbuild.build({ absWorkingDir: root, entryPoints: entries, bundle: true, write: false, format: 'esm', platform: 'node', packages: 'external', metafile: true, logLevel: 'silent', outdir: path.join(outDir, 'tmp') });
  return Object.keys(r.metafile.inputs).map((f) => path.resolve(root, f));
}

/** esbuild: each file's `import.meta.url` is its own built file's URL, computed from the bundle's place */
function keepModuleUrls(shared) {
  return {
    name: 'basin-module-urls',
    setup(build) {
      // a file a contract imports is required from its own place (one instance; see above)
      build.onResolve({ filter: /^\./ }, (args) => {
        if (args.kind === 'entry-point') return undefined;
        const abs = path.resolve(args.resolveDir, args.path);
        return shared.has(abs) ? { path: `./${rel(abs)}`, external: true } : undefined;
      });
      build.onLoad({ filter: /[\\/]plugins[\\/][^\\/]+[\\/]dist[\\/][^\\/]+\.js$/ }, (args) => {
        const text = fs.readFileSync(args.path, 'utf8');
        // a declaration of this module's own (esbuild renames each module's top-level names apart); the
        // function is the bundle's (banner), since a module may declare a `require` of its own
        const prefix = `var __basin_module_url = __basinModuleUrl(${JSON.stringify(rel(args.path))});\n`;
        return { contents: prefix + text, loader: 'js', resolveDir: path.dirname(args.path) };
      });
    },
  };
}

const common = {
  // metafile paths are relative to it
  absWorkingDir: root,
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  define: { 'import.meta.url': '__basin_module_url' },
  logLevel: 'silent',
  charset: 'ascii',
  // an import() becomes a require() inside a promise (Node 20.19+ require()s ES modules too): V8 gives a
  // script compiled through node:vm, as core's code-cache loader does, no loader for import() once the
  // code comes from the cache (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING)
  supported: { 'dynamic-import': false },
  banner: { js: 'const __basinModuleUrl = (rel) => require("node:url").pathToFileURL(require("node:path").join(__dirname, rel)).href;' },
  // esbuild's __toESM, wrapped (appended at the end: the modules run later, their inits are lazy):
  // - an ES module require()d is its namespace, which is what `import` gives: esbuild's helper, in
  //   Node mode, would make the whole namespace its `default`;
  // - it copies every export of a CommonJS module into a new object at each import (`import fs from
  //   'fs'` in 65 modules: ~20,000 getters, ~12 ms of a start); one copy per module reads the same.
  footer: {
    js: '__toESM = ((toESM) => { const made = [new WeakMap(), new WeakMap()]; return (mod, isNodeMode) => { if (mod === null || (typeof mod !== "object" && typeof mod !== "function")) return toESM(mod, isNodeMode); if (mod[Symbol.toStringTag] === "Module") return mod; const m = made[isNodeMode ? 1 : 0]; let r = m.get(mod); if (!r) m.set(mod, (r = toESM(mod, isNodeMode))); return r; }; })(__toESM);',
  },
};

/**
 * Each UTF-16 unit above U+007F as a \uXXXX escape (esbuild's `charset: 'ascii'` leaves comments and some
 * regular expressions as written): an ASCII file is read as a one-byte string without decoding UTF-8
 * (core/vendor/load-bundle.cjs). The escape means the same character in a string or regular expression
 * and is text in a comment; the bundle has no tagged template's raw text, where it would not.
 */
function ascii(code) {
  if (/String\.raw/.test(code)) throw new Error('the bundle uses String.raw: escaping its non-ASCII characters could change its text');
  return code.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

async function main() {
  const plugins = readPlugins();
  const shared = new Set(await graphOf(plugins.flatMap((p) => p.others)));
  const included = [];
  const left = [];
  // a plugin whose entry cannot be CommonJS stays an ES module (esbuild says why)
  for (const p of plugins) {
    try {
      await esbuild.build({ ...common, entryPoints: [p.main], write: false, outfile: outFile, plugins: [keepModuleUrls(shared)] });
      included.push(p);
    } catch (e) {
      left.push({ name: p.name, reason: (e.errors?.[0]?.text ?? String(e)).split('\n')[0] });
    }
  }
  fs.mkdirSync(outDir, { recursive: true });
  const entry = `module.exports = {\n${included.map((p) => `  ${JSON.stringify(p.name)}: () => require(${JSON.stringify(p.main)}),`).join('\n')}\n};\n`;
  const r = await esbuild.build({
    ...common,
    stdin: { contents: entry, resolveDir: root, sourcefile: 'plugins-entry.cjs', loader: 'js' },
    outfile: `${outFile}.tmp`,
    metafile: true,
    // mapped through the plugins' own source maps to their TypeScript (`node --enable-source-maps`)
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [keepModuleUrls(shared)],
  });
  const inputs = Object.keys(r.metafile.inputs)
    .filter((f) => f !== 'plugins-entry.cjs')
    .map((f) => path.resolve(root, f));
  // a bundle that took in a contract's file would hold a second instance of its refs
  const leaked = inputs.filter((f) => shared.has(f));
  if (leaked.length) throw new Error(`the bundle took in files that contracts import: ${leaked.join(', ')}`);
  // core checks every built file of the bundled plugins (not only the bundled ones: a rebuilt plugin's
  // chunks get new names, and the bundle requires its shared ones by name)
  const folders = included.map((p) => path.dirname(p.main));
  const files = folders.flatMap((d) => fs.readdirSync(d).filter((f) => f.endsWith('.js')).map((f) => path.join(d, f)));
  const outside = inputs.filter((f) => !files.includes(f));
  if (outside.length) throw new Error(`the bundle took in files outside the plugins' dist folders: ${outside.join(', ')}`);
  const record = (f) => {
    const data = fs.readFileSync(f);
    return { file: rel(f), size: data.length, mtime_ms: fs.statSync(f).mtimeMs, sha256: crypto.createHash('sha256').update(data).digest('hex') };
  };
  const manifest = {
    note: 'written by runtime/src/build.mjs: core loads plugins.cjs only while every file below is unchanged',
    packages: Object.fromEntries(included.map((p) => [p.name, rel(p.main)])),
    left_as_es_modules: left,
    folders: folders.map(rel),
    inputs: files.map(record),
  };
  // the code first, then the manifest that vouches for it
  let code = fs.readFileSync(`${outFile}.tmp`, 'utf8');
  if (code.includes(root + path.sep)) throw new Error('the bundle names an absolute path of this checkout');
  if (!/\nvar __toESM = /.test(code)) throw new Error("esbuild's __toESM helper is not where the footer expects it");
  if (/\bimport\(/.test(code.replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, ''))) throw new Error('the bundle still has an import(): see `supported` above');
  code = ascii(code);
  // the map keeps its name: the code's last line points at plugins.cjs.map
  code = code.replace(/\/\/# sourceMappingURL=plugins\.cjs\.tmp\.map\s*$/, '//# sourceMappingURL=plugins.cjs.map\n');
  fs.writeFileSync(`${outFile}.tmp`, code);
  fs.renameSync(`${outFile}.tmp.map`, `${outFile}.map`);
  fs.renameSync(`${outFile}.tmp`, outFile);
  fs.writeFileSync(`${manifestFile}.tmp`, `${JSON.stringify(manifest, null, 2)}\n`);
  fs.renameSync(`${manifestFile}.tmp`, manifestFile);
  console.log(`runtime: ${included.length} plugins in dist/plugins.cjs (${(code.length / 1024).toFixed(0)} KB, ${inputs.length} files)${left.length ? `; as ES modules: ${left.map((l) => l.name).join(', ')}` : ''}`);
}

await main();
