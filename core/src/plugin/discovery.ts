import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prebuiltModule } from './prebuilt.js';

// required, not imported: an ESM import of node:fs builds its module facade, which loads fs's streams
// (8-18 ms that `basin --version` and `--help`, which come through here, do not otherwise need)
const fs = createRequire(import.meta.url)('node:fs') as typeof import('node:fs');

export interface DiscoveredPackage {
  name: string;
  dir: string;
  kind: 'plugin' | 'source' | 'warehouse';
  /** the `basin` field of package.json */
  meta: Record<string, unknown>;
}

const here = path.dirname(fileURLToPath(import.meta.url));

let installRoot: string | null = null;

/** The npm workspace root Basin runs from (the monorepo), or the nearest dir holding node_modules. */
export function findInstallRoot(start = here): string {
  // asked several times by every start (CLI, plugins, warehouses, sources): walked once
  if (start === here) return (installRoot ??= walkToInstallRoot(start));
  return walkToInstallRoot(start);
}

function walkToInstallRoot(start: string): string {
  let dir = start;
  let fallback: string | null = null;
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj)) {
      try {
        if (JSON.parse(fs.readFileSync(pj, 'utf8')).workspaces) return dir;
      } catch {
        /* not ours */
      }
    }
    if (!fallback && fs.existsSync(path.join(dir, 'node_modules'))) fallback = dir;
    const up = path.dirname(dir);
    if (up === dir) return fallback ?? start;
    dir = up;
  }
}

function expandWorkspace(root: string, pattern: string): string[] {
  if (!pattern.endsWith('/*')) return [path.join(root, pattern)];
  const base = path.join(root, pattern.slice(0, -2));
  if (!fs.existsSync(base)) return [];
  return fs
    .readdirSync(base, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => path.join(base, d.name));
}

function readBasinPackage(dir: string): DiscoveredPackage | null {
  const pj = path.join(dir, 'package.json');
  if (!fs.existsSync(pj)) return null;
  const json = JSON.parse(fs.readFileSync(pj, 'utf8'));
  const meta = json.basin;
  if (!meta || (meta.kind !== 'plugin' && meta.kind !== 'source' && meta.kind !== 'warehouse')) return null;
  return { name: json.name, dir, kind: meta.kind, meta };
}

const discovered = new Map<string, DiscoveredPackage[]>();

/**
 * Workspace packages that declare `"basin": {"kind": "plugin" | "source" | "warehouse"}` in package.json.
 * Read once per process and root (a start asked four times, ~70 package.json files each); callers get
 * their own copies.
 */
export function discoverWorkspacePackages(root = findInstallRoot()): DiscoveredPackage[] {
  let found = discovered.get(root);
  if (!found) discovered.set(root, (found = readWorkspacePackages(root)));
  return found.map((p) => ({ ...p, meta: { ...p.meta } }));
}

function readWorkspacePackages(root: string): DiscoveredPackage[] {
  const pj = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  const dirs: string[] = (pj.workspaces ?? []).flatMap((w: string) => expandWorkspace(root, w));
  if (!pj.workspaces) {
    // installed as a dependency: scan node_modules/@basin/*
    const scoped = path.join(root, 'node_modules', '@basin');
    if (fs.existsSync(scoped)) dirs.push(...fs.readdirSync(scoped).map((n) => path.join(scoped, n)));
  }
  return dirs.map(readBasinPackage).filter((p): p is DiscoveredPackage => p !== null);
}

/** Packages named in project.yml `plugins:` (npm names or paths relative to the project). */
export function resolveProjectPackages(projectDir: string, names: string[]): DiscoveredPackage[] {
  const req = createRequire(path.join(projectDir, 'package.json'));
  const out: DiscoveredPackage[] = [];
  for (const name of names) {
    let dir: string;
    if (name.startsWith('.') || path.isAbsolute(name)) dir = path.resolve(projectDir, name);
    else {
      try {
        dir = path.dirname(req.resolve(`${name}/package.json`));
      } catch {
        throw new Error(`Plugin package "${name}" listed in .basin/project.yml is not installed; run "npm install ${name}" in the project.`);
      }
    }
    const pkg = readBasinPackage(dir);
    if (!pkg) throw new Error(`Package "${name}" has no "basin": {"kind": "plugin" | "source"} field in its package.json.`);
    out.push(pkg);
  }
  return out;
}

/** Imports a discovered package's entry (a built-in plugin from the prebuilt bundle: prebuilt.ts) and returns its default export. */
export async function importPackage<T>(pkg: DiscoveredPackage): Promise<T> {
  const entry = packageEntry(pkg.dir);
  const mod = prebuiltModule(findInstallRoot(), pkg.name, entry) ?? (await import(pathToFileURL(entry).href));
  return (mod.default ?? mod) as T;
}

/**
 * The file a package's "." export points at under the conditions this process runs with: the
 * TypeScript source when started with --conditions=development (tests, dev), else the built dist.
 */
export function packageEntry(dir: string): string {
  const pj = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const exp = pj.exports?.['.'] ?? pj.exports;
  const dev = process.execArgv.some((a) => a.includes('development')) || (process.env.NODE_OPTIONS ?? '').includes('development');
  let rel: string | undefined;
  if (typeof exp === 'string') rel = exp;
  else if (exp) rel = (dev && exp.development) || exp.import || exp.default;
  rel ??= pj.module ?? pj.main ?? 'index.js';
  const file = path.join(dir, rel!);
  // a package not built yet still runs from source when a TypeScript loader is active
  if (!fs.existsSync(file) && exp?.development) return path.join(dir, exp.development);
  return file;
}
