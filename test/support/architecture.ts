import fs from 'node:fs';
import path from 'node:path';

/**
 * The seams between packages, checked from the source text (test/architecture.test.ts):
 * - a package is reached only through the entries its package.json `exports` declares, from anywhere;
 * - shipped code (a package's src/) never reaches another package by a relative path, and declares every
 *   workspace package it imports in `dependencies` (tests may share fixtures across packages: declaring
 *   those would make dependency cycles the build refuses);
 * - plugin code reaches another plugin only through its `./contract` entry;
 * - source connectors (sources/*) import no workspace package but the SDK;
 * - no `as unknown as` under plugins/ and sources/ (a cast that hides a missing contract).
 */
export interface WorkspacePackage {
  name: string;
  /** directory relative to the repository root, e.g. plugins/sync */
  dir: string;
  exports: string[];
  dependencies: string[];
  devDependencies: string[];
}

export interface SourceFile {
  /** path relative to the repository root */
  file: string;
  text: string;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

export function importsOf(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((m) => m[1]!);
}

function ownerOf(file: string, pkgs: WorkspacePackage[]): WorkspacePackage | undefined {
  return pkgs.filter((p) => file.startsWith(`${p.dir}/`)).sort((a, b) => b.dir.length - a.dir.length)[0];
}

function splitBare(spec: string): { name: string; sub: string } {
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  const rest = parts.slice(n).join('/');
  return { name: parts.slice(0, n).join('/'), sub: rest ? `./${rest}` : '.' };
}

/** files whose text quotes violations on purpose */
const EXAMPLES = new Set(['test/architecture.test.ts']);

export function findViolations(pkgs: WorkspacePackage[], files: SourceFile[]): string[] {
  const byName = new Map(pkgs.map((p) => [p.name, p]));
  const out: string[] = [];
  for (const { file, text } of files) {
    if (EXAMPLES.has(file)) continue;
    const owner = ownerOf(file, pkgs);
    const inPluginsOrSources = /^(plugins|sources)\//.test(file);
    if (inPluginsOrSources && /\bas unknown as\b/.test(text)) out.push(`${file}: "as unknown as" (declare the type in the contract instead)`);
    if (!owner) continue;
    const isSrc = file.startsWith(`${owner.dir}/src/`);
    for (const spec of importsOf(text)) {
      if (spec.startsWith('.')) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
        if (isSrc && !target.startsWith(`${owner.dir}/`)) out.push(`${file}: imports ${spec}, a file of another package (import its declared entry)`);
        continue;
      }
      const { name, sub } = splitBare(spec);
      const target = byName.get(name);
      if (!target || target === owner) continue;
      if (!target.exports.includes(sub)) out.push(`${file}: imports ${spec}, which ${name} does not export (its entries: ${target.exports.join(', ')})`);
      if (isSrc && !owner.dependencies.includes(name)) out.push(`${file}: imports ${name}, which ${owner.dir}/package.json does not declare in dependencies`);
      if (isSrc && owner.dir.startsWith('plugins/') && target.dir.startsWith('plugins/') && sub !== './contract') {
        out.push(`${file}: imports ${spec}; a plugin reaches another plugin only through its contract (${name}/contract)`);
      }
      if (isSrc && owner.dir.startsWith('sources/') && name !== '@basin/sdk') out.push(`${file}: imports ${name}; a source depends on @basin/sdk only`);
    }
  }
  return out;
}

const SKIP = new Set(['node_modules', 'dist', '.turbo', '.git', '.cache']);

function walk(root: string, rel: string, out: SourceFile[]): void {
  for (const e of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    if (SKIP.has(e.name) || e.name.startsWith('.')) continue;
    const r = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) walk(root, r, out);
    else if (/\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push({ file: r, text: fs.readFileSync(path.join(root, r), 'utf8') });
  }
}

/** The repository's workspace packages (from the root package.json) and their TypeScript files. */
export function readWorkspace(root: string): { pkgs: WorkspacePackage[]; files: SourceFile[] } {
  const globs: string[] = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).workspaces;
  const dirs = globs.flatMap((g) =>
    g.endsWith('/*')
      ? fs.readdirSync(path.join(root, g.slice(0, -2)), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => `${g.slice(0, -2)}/${e.name}`)
      : [g],
  );
  const pkgs: WorkspacePackage[] = [];
  const files: SourceFile[] = [];
  for (const dir of dirs) {
    const pj = path.join(root, dir, 'package.json');
    if (!fs.existsSync(pj)) continue;
    const p = JSON.parse(fs.readFileSync(pj, 'utf8'));
    const exp = p.exports;
    const exports = typeof exp === 'string' || !exp ? ['.'] : Object.keys(exp).some((k) => k.startsWith('.')) ? Object.keys(exp) : ['.'];
    pkgs.push({ name: p.name, dir, exports, dependencies: Object.keys({ ...p.dependencies, ...p.peerDependencies }), devDependencies: Object.keys(p.devDependencies ?? {}) });
    walk(root, dir, files);
  }
  return { pkgs, files };
}
