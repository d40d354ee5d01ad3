import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SourceError } from '@basin/sdk';

export const CUSTOM_SOURCES_DIR = 'custom_sources';
const EXTENSIONS = ['.mjs', '.js', '.ts', '.mts'];

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * The file a `source_module` names, inside the project's `custom_sources/`: a path
 * (`custom_sources/shop.js`, `shop.js`, `shop`) or a dotted module name (`shop.orders`).
 * Anything resolving outside that directory, symlinks included, is refused.
 */
export async function resolveModule(projectDir: string, sourceModule: string): Promise<string> {
  const root = path.resolve(projectDir, CUSTOM_SOURCES_DIR);
  let rel = sourceModule.replace(/\\/g, '/').replace(/^\.\//, '');
  if (rel.startsWith(`${CUSTOM_SOURCES_DIR}/`)) rel = rel.slice(CUSTOM_SOURCES_DIR.length + 1);
  const hasExt = EXTENSIONS.some((e) => rel.endsWith(e));
  if (!hasExt && !rel.includes('/') && rel.includes('.')) rel = rel.split('.').join('/');
  const base = path.resolve(root, rel);
  if (path.isAbsolute(sourceModule) || !inside(root, base)) {
    throw new SourceError('module_outside_custom_sources', `source_module "${sourceModule}" must name a module inside the project's ${CUSTOM_SOURCES_DIR}/ directory.`, { source_module: sourceModule });
  }
  const candidates = hasExt ? [base] : [...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, `index${e}`))];
  for (const c of candidates) {
    let real: string;
    try {
      real = await fs.realpath(c);
      if (!(await fs.stat(real)).isFile()) continue;
    } catch {
      continue;
    }
    const realRoot = await fs.realpath(root);
    if (!inside(realRoot, real)) {
      throw new SourceError('module_outside_custom_sources', `source_module "${sourceModule}" resolves outside ${CUSTOM_SOURCES_DIR}/ (symbolic link).`, { source_module: sourceModule });
    }
    return real;
  }
  throw new SourceError('module_not_found', `No module "${sourceModule}" in ${CUSTOM_SOURCES_DIR}/ (tried ${candidates.map((c) => path.relative(projectDir, c)).join(', ')}).`, { source_module: sourceModule });
}

/** Imports a module afresh when it changed on disk (the mtime is part of the URL). */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  const { mtimeMs } = await fs.stat(file);
  const url = `${pathToFileURL(file).href}?v=${Math.trunc(mtimeMs)}`;
  try {
    return (await import(url)) as Record<string, unknown>;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ERR_UNKNOWN_FILE_EXTENSION') {
      throw new SourceError('module_load_failed', `Cannot load ${path.basename(file)}: TypeScript modules need a build step here; compile it to .js (or .mjs) in ${CUSTOM_SOURCES_DIR}/.`);
    }
    throw new SourceError('module_load_failed', `Loading ${path.basename(file)} failed: ${e.message}`);
  }
}
