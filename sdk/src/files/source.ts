import path from 'node:path';
import { Type, type Static, type TObject } from '@sinclair/typebox';
import { defineSource, type MalformedRows, type ResourceSpec, type SourceCategory, type SourceContext, type SourceDefinition } from '../types.js';
import { detectFormat } from './formats.js';
import { readFileDirectory } from './incremental.js';
import { listFiles, resolveProjectDirectory } from './list.js';

/**
 * `malformed_rows` of a file source: a CSV row whose field count differs from the header fails the sync
 * (`fail`, naming file and line; the previous data is kept) or is quarantined into `<table>__rejects`.
 */
export function malformedRowsSchema() {
  return Type.Union([Type.Literal('fail'), Type.Literal('quarantine')], {
    default: 'fail',
    description: 'CSV rows whose field count differs from the header: fail the sync (file, line, reason), or quarantine them into <table>__rejects and load the rest',
  });
}

/** The typed block shared by `local_files` and `csv` (SPEC: directory, file_pattern, notes). */
export function directoryConfigSchema(defaultPattern: string) {
  return Type.Object(
    {
      directory: Type.String({ minLength: 1, description: 'Directory with the files, relative to the project' }),
      file_pattern: Type.String({ minLength: 1, default: defaultPattern, description: 'Glob of the files to load; `**/` recurses into subdirectories' }),
      notes: Type.Optional(Type.String({ description: 'Free text shown with the source' })),
      malformed_rows: malformedRowsSchema(),
    },
    { additionalProperties: false },
  );
}

export interface FileSourceOptions<S extends TObject> {
  type: string;
  title: string;
  category?: SourceCategory;
  wizard: boolean;
  configSchema: S;
  docs?: string;
  /** the absolute directory to list for this config (throws a SourceError when unacceptable) */
  directory(ctx: SourceContext<Static<S>>): Promise<string>;
  pattern(config: Static<S>): string;
  /** the declared file-directory capability: where the directory is without checking it (watcher, uploads) */
  localDirectory(config: Static<S>, projectDir: string): string | null;
  /** true when the directory must lie inside the project */
  insideProject: boolean;
  /** the setting naming the directory */
  directoryKey: string;
}

/** The one resource of a file source: named after the source, rows appended per file. */
export function fileResource(sourceName: string): ResourceSpec {
  return {
    name: sourceName,
    writeDisposition: 'append',
    description: 'Every matching file, loaded into one table; each row carries `_basin_file_id`, the id of its file in `_basin_files`.',
  };
}

/**
 * A source that loads every matching CSV/JSON/JSONL/NDJSON/Parquet file of a directory into one
 * table (resource named after the source), incrementally by file (path, size, mtime, hash).
 */
export function createFileSource<S extends TObject>(opts: FileSourceOptions<S>): SourceDefinition<S> {
  return defineSource({
    type: opts.type,
    title: opts.title,
    category: opts.category ?? 'files',
    authKind: 'none',
    wizard: opts.wizard,
    configKey: 'typed',
    configSchema: opts.configSchema,
    capabilities: { incremental: true, dateRange: false, customQueries: false },
    fileDirectory: { key: opts.directoryKey, directory: opts.localDirectory, pattern: opts.pattern, insideProject: opts.insideProject },
    docs: opts.docs,
    async check(ctx) {
      try {
        const dir = await opts.directory(ctx);
        const files = await listFiles(dir, { pattern: opts.pattern(ctx.config) });
        let loadable = 0;
        for (const f of files) {
          const d = await detectFormat(f.path, f.size).catch(() => null);
          if (d?.format && !d.mismatch && !d.empty) loadable++;
        }
        return { ok: true, message: `${files.length} file(s) match "${opts.pattern(ctx.config)}"; ${loadable} loadable.` };
      } catch (err) {
        return { ok: false, message: (err as Error).message };
      }
    },
    async discover(ctx) {
      await opts.directory(ctx);
      return [fileResource(ctx.name)];
    },
    async *read(ctx, resources, state) {
      const resource = resources[0]?.name ?? ctx.name;
      yield* readFileDirectory({
        resource,
        directory: await opts.directory(ctx),
        pattern: opts.pattern(ctx.config),
        state: state[resource],
        fullRefresh: ctx.options.fullRefresh,
        projectDir: ctx.projectDir,
        log: ctx.log,
        malformedRows: (ctx.config as { malformed_rows?: MalformedRows }).malformed_rows,
      });
    },
  });
}

/** `local_files`/`csv`: a directory inside the project. */
export function projectDirectorySource(opts: { type: string; title: string; wizard: boolean; defaultPattern: string; docs?: string }) {
  const configSchema = directoryConfigSchema(opts.defaultPattern);
  return createFileSource({
    ...opts,
    configSchema,
    directory: (ctx) => resolveProjectDirectory(ctx.projectDir, ctx.config.directory),
    localDirectory: (c, projectDir) => (c.directory ? path.resolve(projectDir, c.directory) : null),
    insideProject: true,
    directoryKey: 'directory',
    pattern: (c) => c.file_pattern ?? opts.defaultPattern,
  });
}
