import fs from 'node:fs/promises';
import path from 'node:path';
import { SourceError } from '../types.js';
import { globToRegExp, isRecursivePattern } from './glob.js';

export interface ListedFile {
  /** absolute path */
  path: string;
  /** path relative to the listed directory, `/` separators */
  relative: string;
  size: number;
  /** modification time, ms since the epoch */
  mtimeMs: number;
}

export interface ListOptions {
  /** glob matched against the path relative to `directory` (default `*`) */
  pattern?: string;
  /** stop at this depth when the pattern recurses (default 32) */
  maxDepth?: number;
}

/** Hidden files, editor backups and partial uploads are never data. */
function ignored(name: string): boolean {
  return name.startsWith('.') || name.endsWith('~') || name.endsWith('.partial') || name.endsWith('.tmp') || name.endsWith('.crdownload');
}

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Lists the regular files under `directory` matching `pattern`, sorted by relative path.
 * Symbolic links are followed only when they resolve inside the directory.
 */
export async function listFiles(directory: string, opts: ListOptions = {}): Promise<ListedFile[]> {
  const pattern = (opts.pattern ?? '*').replace(/^\.\//, '');
  const re = globToRegExp(pattern);
  const recursive = isRecursivePattern(pattern);
  const maxDepth = opts.maxDepth ?? 32;
  let root: string;
  try {
    root = await fs.realpath(directory);
    if (!(await fs.stat(root)).isDirectory()) throw new SourceError('not_a_directory', `${directory} is not a directory.`, { directory });
  } catch (err) {
    if (err instanceof SourceError) throw err;
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new SourceError('directory_not_found', `The directory ${directory} does not exist.`, { directory });
    throw err;
  }
  const out: ListedFile[] = [];
  async function walk(dir: string, rel: string, depth: number): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // removed while listing
      throw err;
    }
    for (const e of entries) {
      if (ignored(e.name)) continue;
      const abs = path.join(dir, e.name);
      const relPath = rel ? `${rel}/${e.name}` : e.name;
      let st;
      try {
        if (e.isSymbolicLink()) {
          const real = await fs.realpath(abs);
          if (!inside(root, real)) continue; // a link escaping the directory is not followed
          st = await fs.stat(real);
        } else st = await fs.stat(abs);
      } catch {
        continue; // vanished or dangling link
      }
      if (st.isDirectory()) {
        if (recursive && depth < maxDepth) await walk(abs, relPath, depth + 1);
      } else if (st.isFile() && re.test(relPath)) {
        out.push({ path: abs, relative: relPath, size: st.size, mtimeMs: Math.trunc(st.mtimeMs) });
      }
    }
  }
  await walk(root, '', 0);
  return out.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
}

/**
 * Resolves a configured directory against the project, refusing anything outside it
 * (`..` segments, absolute paths elsewhere, symlinks that leave the project).
 */
export async function resolveProjectDirectory(projectDir: string, directory: string): Promise<string> {
  const abs = path.resolve(projectDir, directory);
  const projectReal = await fs.realpath(projectDir);
  let real: string;
  try {
    real = await fs.realpath(abs);
  } catch {
    real = path.resolve(projectReal, path.relative(projectDir, abs));
  }
  if (!inside(projectDir, abs) || !inside(projectReal, real)) {
    throw new SourceError('directory_outside_project', `The directory "${directory}" is outside the project; use a path inside the project (or a filesystem source for other locations).`, { directory });
  }
  return abs;
}
