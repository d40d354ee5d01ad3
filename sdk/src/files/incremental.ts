import path from 'node:path';
import { SourceError, type MalformedRows, type ReadItem, type SourceLogger } from '../types.js';
import { detectFormat, type FileFormat } from './formats.js';
import { hashFile } from './hash.js';
import { listFiles, type ListedFile } from './list.js';

/** What a file source remembers per file; `path` is the file's source-file name (`_basin_files.source_file`). */
export interface TrackedFile {
  path: string;
  size: number;
  /** modification time, ms since the epoch */
  mtime: number;
  /** sha256 of the content; '' until the file's size or mtime first changes (or when unreadable) */
  hash: string;
}

/** The `state` a file source commits per resource. */
export interface FileSourceState {
  files: TrackedFile[];
}

export interface ReadFilesOptions {
  resource: string;
  /** absolute directory to list */
  directory: string;
  pattern: string;
  /** last committed state of `resource` (ignored on full refresh, except to forget its files) */
  state?: Record<string, unknown>;
  fullRefresh: boolean;
  /** the project directory: source-file ids are relative to it when the file is inside */
  projectDir: string;
  log?: SourceLogger;
  /** CSV rows that do not fit the header: fail the sync (default) or quarantine them */
  malformedRows?: MalformedRows;
}

/** The source-file name of a file: project-relative with `/` when inside the project, else absolute. */
export function sourceFileId(projectDir: string, file: string): string {
  const rel = path.relative(projectDir, file);
  if (rel && !rel.startsWith('..') && !path.isAbsolute(rel)) return rel.split(path.sep).join('/');
  return file;
}

export function parseFileState(state: Record<string, unknown> | undefined): Map<string, TrackedFile> {
  const out = new Map<string, TrackedFile>();
  const files = (state as Partial<FileSourceState> | undefined)?.files;
  if (!Array.isArray(files)) return out;
  for (const f of files) {
    if (f && typeof f.path === 'string' && typeof f.size === 'number' && typeof f.mtime === 'number') {
      out.set(f.path, { path: f.path, size: f.size, mtime: f.mtime, hash: typeof f.hash === 'string' ? f.hash : '' });
    }
  }
  return out;
}

function csvOptions(file: string): Record<string, unknown> | undefined {
  return /\.tsv(\.(gz|zst))?$/i.test(file) ? { delim: '\t' } : undefined;
}

async function hashOrEmpty(file: string): Promise<string> {
  try {
    return await hashFile(file);
  } catch {
    return ''; // vanished after listing: the next sync sees it gone and forgets its rows
  }
}

/**
 * The incremental read of a directory of files into one resource:
 * new and modified files → `file` items (DuckDB bulk-loads them), modified and deleted files →
 * one `forget_files` item first, then a `state` item listing every tracked file.
 * Unchanged size + mtime means unchanged; a changed mtime with the same hash is not reloaded.
 * A file is hashed only when its size or mtime changes: hashing every new file competed with DuckDB
 * for the CPU (~10% of a large first load) and hashing on re-syncs made them slow. The cost: a file
 * touched for the first time (its hash still unknown) is reloaded once; after that it is compared.
 */
export async function* readFileDirectory(opts: ReadFilesOptions): AsyncGenerator<ReadItem> {
  const { resource, projectDir, log } = opts;
  const listed = await listFiles(opts.directory, { pattern: opts.pattern });
  const previous = parseFileState(opts.state);
  const known = opts.fullRefresh ? new Map<string, TrackedFile>() : previous;

  const tracked: TrackedFile[] = [];
  const forget: string[] = [];
  const load: Array<{ file: ListedFile; id: string; format: FileFormat; hash: string }> = [];
  const seen = new Set<string>();

  for (const file of listed) {
    const id = sourceFileId(projectDir, file.path);
    seen.add(id);
    const before = known.get(id);
    if (before && before.size === file.size && before.mtime === file.mtimeMs) {
      tracked.push(before);
      continue;
    }
    let hash: string | null = null;
    if (before) {
      hash = await hashOrEmpty(file.path);
      if (hash && hash === before.hash) {
        tracked.push({ ...before, mtime: file.mtimeMs }); // touched, not changed
        continue;
      }
      forget.push(id);
    }
    let detected;
    try {
      detected = await detectFormat(file.path, file.size);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue; // vanished since listing
      throw err;
    }
    if (detected.mismatch) {
      throw new SourceError('file_format_mismatch', `Cannot load ${id}: ${detected.problem}.`, { file: id });
    }
    if (!detected.format && !detected.empty) {
      log?.warn(`Skipping ${id}: ${detected.problem}.`, { file: id });
      continue;
    }
    if (detected.empty) {
      // tracked so a later content change is noticed; nothing to load
      log?.info(`${id} is empty; nothing to load from it.`, { file: id });
      tracked.push({ path: id, size: file.size, mtime: file.mtimeMs, hash: hash ?? (await hashOrEmpty(file.path)) });
      continue;
    }
    load.push({ file, id, format: detected.format!, hash: hash ?? '' });
  }
  for (const id of previous.keys()) {
    const gone = opts.fullRefresh || !seen.has(id);
    if (gone && !forget.includes(id)) forget.push(id);
  }

  if (forget.length) yield { kind: 'forget_files', resource, sourceFiles: forget };
  for (const l of load) {
    const options = l.format === 'csv' ? csvOptions(l.file.path) : undefined;
    yield { kind: 'file', resource, path: l.file.path, format: l.format, sourceFile: l.id, ...(options ? { options } : {}), ...(opts.malformedRows === 'quarantine' ? { malformedRows: 'quarantine' as const } : {}) };
  }
  for (const l of load) tracked.push({ path: l.id, size: l.file.size, mtime: l.file.mtimeMs, hash: l.hash });
  tracked.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const state: FileSourceState = { files: tracked };
  yield { kind: 'state', resource, state: state as unknown as Record<string, unknown> };
}
