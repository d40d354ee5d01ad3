import crypto from 'node:crypto';
import path from 'node:path';
import { createRequire } from 'node:module';
import { canRequireEsModules, runsTypeScriptSources } from './run-mode.js';

// The install's built-in plugins prebuilt as one CommonJS file (runtime/, issue 19): loaded with a V8
// code cache instead of ~50 ES modules that Node 20 resolves, links and compiles at every start. It is
// the same code as the plugins' dist/ builds and is used only while those are unchanged; anything else
// (a TypeScript loader, an older Node, BASIN_PREBUILT=0, a plugin rebuilt since) imports the ES modules.

const require = createRequire(import.meta.url);
// required, not imported: see discovery.ts
const fs = require('node:fs') as typeof import('node:fs');

export interface Manifest {
  /** package name -> its main entry, relative to the bundle */
  packages: Record<string, string>;
  /** every built file of the bundled packages, relative to the bundle */
  inputs: Array<{ file: string; size: number; mtime_ms: number; sha256: string }>;
  /** the dist folders those files were listed from, relative to the bundle */
  folders: string[];
}

export type Loaded = { file: string; dir: string; manifest: Manifest; modules: Record<string, () => Record<string, unknown>> };

/** null: not looked for yet; false: not usable in this process */
let loaded: Loaded | false | null = null;
let why = '';

/** what the prebuilt plugins did in this process (BASIN_TRACE_STARTUP prints it) */
export function prebuiltStatus(): string {
  return loaded ? `prebuilt plugins from ${loaded.file}` : `plugins as ES modules${why ? ` (${why})` : ''}`;
}

/** null when the listed files are the ones in the dist folders now, each of its recorded size and content; else what changed */
function whatChanged(dir: string, m: Manifest): string | null {
  const listed = new Set(m.inputs.map((i) => i.file));
  for (const folder of m.folders) {
    for (const f of fs.readdirSync(path.join(dir, folder))) {
      if (f.endsWith('.js') && !listed.has(`${folder}/${f}`)) return `${folder}/${f} is new`;
    }
  }
  for (const i of m.inputs) {
    const abs = path.join(dir, i.file);
    let st: import('node:fs').Stats;
    try {
      st = fs.statSync(abs);
    } catch {
      return `${i.file} is gone`;
    }
    if (st.size !== i.size) return `${i.file} changed`;
    // a copy with other times (a build restored from cache) is compared by content
    if (st.mtimeMs !== i.mtime_ms && crypto.createHash('sha256').update(fs.readFileSync(abs)).digest('hex') !== i.sha256) return `${i.file} changed`;
  }
  return null;
}

/** Whether this process may use a prebuilt bundle at all; null: yes, else why not. */
function unusableHere(): string | null {
  if (process.env.BASIN_PREBUILT === '0') return 'BASIN_PREBUILT=0';
  if (runsTypeScriptSources()) return 'running the TypeScript sources';
  // the bundle require()s the ES modules it shares with other packages (core, the SDK, contracts)
  if (!canRequireEsModules()) return 'this Node cannot require() ES modules';
  return null;
}

/**
 * The prebuilt bundle the install root's package.json names (`"basin": {"prebuilt_plugins": …}`), loaded
 * when it and its manifest are there and every file it was built from is unchanged; else why not.
 */
export function openPrebuilt(root: string): { loaded: Loaded } | { why: string } {
  let rel: unknown;
  try {
    rel = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).basin?.prebuilt_plugins;
  } catch {
    return { why: 'no package.json at the install root' };
  }
  if (typeof rel !== 'string') return { why: 'the install has no prebuilt plugins' };
  const file = path.join(root, rel);
  const dir = path.dirname(file);
  const manifestFile = file.replace(/\.cjs$/, '.json');
  if (!fs.existsSync(file) || !fs.existsSync(manifestFile)) return { why: `${rel} is not built` };
  try {
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as Manifest;
    const stale = whatChanged(dir, manifest);
    if (stale) return { why: `${rel} is older than the plugins: ${stale}; "npm run build" builds it again` };
    const modules = require('@basin/core/vendor/load-bundle').loadBundle(file) as Loaded['modules'];
    return { loaded: { file, dir, manifest, modules } };
  } catch (e) {
    return { why: `${rel} did not load: ${(e as Error).message}` };
  }
}

function load(root: string): Loaded | false {
  const no = unusableHere();
  if (no) return ((why = no), false);
  const r = openPrebuilt(root);
  if ('why' in r) return ((why = r.why), false);
  return r.loaded;
}

/**
 * The module of a built-in package from the prebuilt bundle, when this process uses one and the bundle
 * holds the package with this entry; undefined: import the entry as usual.
 */
export function prebuiltModule(root: string, name: string, entry: string): Record<string, unknown> | undefined {
  if (loaded === null) loaded = load(root);
  if (!loaded) return undefined;
  const main = loaded.manifest.packages[name];
  if (!main || path.join(loaded.dir, main) !== entry) return undefined;
  return loaded.modules[name]?.();
}
