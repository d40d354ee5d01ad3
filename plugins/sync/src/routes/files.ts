import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { BasinError, coreServices, errors, ident, literal, resolveInside, type PluginContext, coreErrors } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { rawSchema, type SourcesConfig } from '@basin/plugin-sources/contract';
import type { SyncEngineImpl } from '../engine.js';
import { checkContent, formatFromName } from '../sniff.js';
import type { SyncStore } from '../store.js';
import { SourceParams } from './params.js';
import { syncErrors } from '../errors.js';
import { FILES_TABLE } from '../load/file-id.js';

export interface UploadsSection {
  max_file_mb: number;
}

interface SourceDir {
  dir: string;
  source: string;
  /** a path as responses show it: never the server's absolute layout (issue 12) */
  shown(abs: string): string;
}

const inside = (root: string, p: string) => {
  const rel = path.relative(root, p);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
};

function dirOf(projectDir: string, sources: SourcesConfig, name: string): SourceDir {
  const s = sources.find(name);
  if (!s) throw errors.notFound(`Source "${name}"`);
  const dir = sources.directory(s);
  if (!dir) throw syncErrors.not_a_file_source({ source: name, type: s.type }, { details: { source: name } });
  const block = sources.block(s);
  const configured = String(block.directory ?? block.bucket_url ?? '');
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return p;
    }
  };
  const shown = (abs: string): string => {
    // inside the project: relative to it; elsewhere (a filesystem source): under the directory as configured
    for (const root of [projectDir, real(projectDir)]) if (inside(root, abs)) return path.relative(root, abs) || '.';
    const rel = path.relative(inside(dir, abs) ? dir : real(dir), abs);
    return rel ? `${configured.replace(/\/+$/, '')}/${rel.split(path.sep).join('/')}` : configured;
  };
  return { dir, source: s.name, shown };
}

/** keeps a safe base name: no directories, no leading dot, no odd characters */
function safeName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/'));
  const clean = base.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '');
  return clean.slice(-200);
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, depth: number) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const p = path.join(d, e.name);
      if (e.isDirectory() && depth < 8) walk(p, depth + 1);
      else if (e.isFile() && formatFromName(e.name)) out.push(p);
    }
  };
  walk(dir, 0);
  return out.sort();
}

export function registerFileRoutes(ctx: PluginContext, d: { sources: SourcesConfig; store: SyncStore; engine: SyncEngineImpl; maxBytes: number }): void {
  ctx.routes.post(
    '/api/sources/:source_name/upload-csv',
    { errors: [syncErrors.not_a_file_source, syncErrors.multipart_required, syncErrors.file_required, syncErrors.unsupported_file_type, syncErrors.invalid_file_content, syncErrors.invalid_file_name], response: { 201: Type.Unknown({ description: 'the stored file' }) },
      permission: 'csv.upload',
      schema: {
        params: SourceParams,
        querystring: Type.Object({ trigger_sync: Type.Boolean({ default: false }) }),
        summary: 'Upload a CSV, JSON, JSONL or Parquet file into a file source (multipart field "file")',
        consumes: ['multipart/form-data'],
      },
    },
    async (req, reply) => {
      const { dir, source, shown } = dirOf(ctx.config.projectDir, d.sources, req.params.source_name);
      if (!req.isMultipart()) throw syncErrors.multipart_required();
      const part = await req.file({ limits: { fileSize: d.maxBytes, files: 1 } });
      if (!part) throw syncErrors.file_required();
      const name = safeName(part.filename || '');
      const format = formatFromName(name);
      if (!name || !format) {
        part.file.resume();
        throw syncErrors.unsupported_file_type({ filename: part.filename }, { details: { filename: part.filename } });
      }
      fs.mkdirSync(dir, { recursive: true });
      const tmp = path.join(dir, `.upload-${crypto.randomBytes(6).toString('hex')}.tmp`);
      try {
        await pipeline(part.file, fs.createWriteStream(tmp, { mode: 0o644 }));
        if (part.file.truncated) {
          throw coreErrors.payload_too_large({ reason: `The file is larger than the upload limit of ${Math.round(d.maxBytes / 1048576)} MB (uploads.max_file_mb in project.yml).` }, { details: { limit_bytes: d.maxBytes } });
        }
        const problem = checkContent(tmp, format);
        if (problem) throw syncErrors.invalid_file_content({ filename: name, format, problem }, { details: { filename: name, format } });
        const target = resolveInside(dir, name);
        if (!target) throw syncErrors.invalid_file_name({ details: { filename: name } });
        fs.renameSync(tmp, target);
        const size = fs.statSync(target).size;
        d.store.log(source, null, 'info', `uploaded ${name} (${size} bytes)`, ctx.clock.now().toISOString());
        void ctx.events.emit('csv_uploaded', { source, file: name });
        let sync = null;
        let syncSkipped: string | null = null;
        if (req.query.trigger_sync) {
          try {
            sync = d.engine.start(source, { trigger: 'upload' });
          } catch (e) {
            if (e instanceof BasinError && e.code === 'sync_in_progress') syncSkipped = 'sync_in_progress';
            else throw e;
          }
        }
        reply.code(201);
        return { source, file: name, path: shown(target), size, format, sync, sync_skipped: syncSkipped };
      } catch (e) {
        if (e && typeof e === 'object' && (e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw coreErrors.payload_too_large({ reason: `The file is larger than the upload limit of ${Math.round(d.maxBytes / 1048576)} MB (uploads.max_file_mb in project.yml).` }, { details: { limit_bytes: d.maxBytes } });
        }
        throw e;
      } finally {
        fs.rmSync(tmp, { force: true });
      }
    },
  );

  ctx.routes.get('/api/sources/:source_name/csv-files', { errors: [syncErrors.not_a_file_source], permission: 'public', schema: { params: SourceParams, summary: 'Files on disk and files loaded in the warehouse' } }, async (req) => {
    const { dir, source, shown } = dirOf(ctx.config.projectDir, d.sources, req.params.source_name);
    const loaded = new Map<string, Array<{ table: string; rows: number }>>();
    const schema = ident(rawSchema(source));
    for (const t of d.store.tables(source)) {
      const table = `${schema}.${ident(t.name)}`;
      // rows carry their file's id; raw_<source>._basin_files names it (tables synced before file ids name it on each row)
      const sql = t.columns.some((c) => c.name === '_basin_file_id')
        ? `SELECT f.source_file AS f, count(*) AS n FROM ${table} AS t JOIN ${schema}.${FILES_TABLE} AS f ON f.file_id = t._basin_file_id AND f.table_name = ${literal(t.name)} GROUP BY 1`
        : t.columns.some((c) => c.name === '_basin_source_file')
          ? `SELECT _basin_source_file AS f, count(*) AS n FROM ${table} GROUP BY 1`
          : null;
      if (!sql) continue;
      const rows = await ctx.resolve(coreServices.warehouse)
        .query<{ f: string; n: string | number }>(sql)
        .catch(() => []);
      for (const r of rows) {
        if (!r.f) continue;
        const list = loaded.get(r.f) ?? [];
        list.push({ table: t.name, rows: Number(r.n) });
        loaded.set(r.f, list);
      }
    }
    const files = listFiles(dir).map((p) => {
      const st = fs.statSync(p);
      const rel = path.relative(dir, p);
      const fromProject = path.relative(ctx.config.projectDir, p);
      const tables = loaded.get(p) ?? loaded.get(fromProject) ?? loaded.get(rel) ?? [];
      return { name: rel, path: shown(p), abs: p, source_file: fromProject, size: st.size, modified_at: st.mtime.toISOString(), loaded: tables.length > 0, tables };
    });
    const onDisk = new Set(files.flatMap((f) => [f.abs, f.name, f.source_file]));
    const loadedOnly = [...loaded.entries()].filter(([f]) => !onDisk.has(f)).map(([f, tables]) => ({ file: path.isAbsolute(f) ? shown(f) : f, tables }));
    return { source, directory: shown(dir), files: files.map(({ abs: _abs, ...f }) => f), loaded_not_on_disk: loadedOnly };
  });

  ctx.routes.delete(
    '/api/sources/:source_name/csv-files',
    { errors: [syncErrors.not_a_file_source, syncErrors.path_outside_directory, syncErrors.not_a_file], permission: 'csv.delete', schema: { params: SourceParams, querystring: Type.Object({ file_path: Type.String({ minLength: 1, maxLength: 4096 }) }), summary: "Delete a file from the source's directory" } },
    async (req) => {
      const { dir, source, shown } = dirOf(ctx.config.projectDir, d.sources, req.params.source_name);
      if (!fs.existsSync(dir)) throw errors.notFound(`Directory of source "${source}"`);
      const given: string = req.query.file_path;
      if (given.split(/[\\/]/).includes('..')) throw syncErrors.path_outside_directory({ reason: 'file_path may not contain "..".' }, { details: { file_path: given } });
      // a name relative to the directory, or the project-relative path this API lists
      let real = resolveInside(dir, given);
      if (real && !fs.existsSync(real) && !path.isAbsolute(given)) {
        const fromProject = resolveInside(ctx.config.projectDir, given);
        if (fromProject && resolveInside(dir, fromProject)) real = fromProject;
      }
      if (!real) throw syncErrors.path_outside_directory({ reason: `file_path is outside the directory of source "${source}".` }, { details: { file_path: given } });
      if (real === fs.realpathSync(dir)) throw syncErrors.not_a_file({ reason: 'file_path names the directory itself, not a file.' }, { details: { file_path: given } });
      let st: fs.Stats;
      try {
        st = fs.statSync(real);
      } catch {
        throw errors.notFound(`File "${given}"`);
      }
      if (!st.isFile()) throw syncErrors.not_a_file({ reason: 'file_path is not a regular file.' }, { details: { file_path: given } });
      fs.rmSync(real);
      d.store.log(source, null, 'info', `deleted ${path.relative(fs.realpathSync(dir), real)}`, ctx.clock.now().toISOString());
      return { deleted: true, path: shown(real), note: 'its rows leave the raw table at the next sync' };
    },
  );
}
