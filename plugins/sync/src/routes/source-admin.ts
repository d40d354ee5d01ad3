import fs from 'node:fs';
import path from 'node:path';
import { isMap, isSeq, parseDocument, YAMLSeq, type Document } from 'yaml';
import { checkAgainstSchema, errors, loadConfigFile, writeFileAtomic, type ConfigIssue, type PluginContext } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { blockKey, SOURCE_NAME, sourcesFileSpec, type SourceRegistry, type SourcesConfig } from '@basin/plugin-sources/contract';
import type { SyncEngineImpl } from '../engine.js';
import { buildSourceContext } from '../context.js';
import { syncErrors } from '../errors.js';

const SourceParams = Type.Object({ source_name: Type.String({ minLength: 1, maxLength: 200 }) });

const SOURCES_FILE = '.basin/sources.yml';

const NewSource = Type.Object({
  name: Type.String({ maxLength: 200 }),
  type: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  enabled: Type.Optional(Type.Boolean()),
  config: Type.Record(Type.String(), Type.Unknown()),
});
const CheckBody = Type.Object({ name: Type.Optional(Type.String({ maxLength: 200 })), type: Type.String({ minLength: 1, maxLength: 200 }), config: Type.Record(Type.String(), Type.Unknown()) });

/**
 * Adding, enabling, disabling and removing sources over HTTP (the UI's add-source wizard), with the
 * same checks as `basin source add`: each type's config schema, field by field, as 422 details under
 * /config/<field>. sources.yml is rewritten atomically with its comments kept, then re-read and
 * swapped into the running config so the sources API and syncs see the change without a restart.
 */
export function registerSourceAdminRoutes(ctx: PluginContext, d: { registry: SourceRegistry; engine: SyncEngineImpl; sources: SourcesConfig }): void {
  const spec = sourcesFileSpec(d.registry);
  const file = ctx.config.resolve(SOURCES_FILE);

  /** the schema problems of a type's settings, as 422 details (paths under /config) */
  function problemsOf(type: string, config: Record<string, unknown>): { block: Record<string, unknown>; details: Array<{ path: string; message: string }> } {
    const def = d.registry.get(type);
    if (!def) throw errors.validation(`Unknown source type "${type}"; GET /api/sources/types lists the installed ones.`, [{ path: '/type', message: `unknown source type "${type}"` }]);
    const { value, problems } = checkAgainstSchema(def.configSchema, config);
    const details = problems.map((p) => ({ path: `/config${p.path === '/' ? '' : p.path}`, message: p.message }));
    if (!details.length) for (const p of def.validateConfig?.(value as never) ?? []) details.push({ path: `/config${p.path === '/' ? '' : p.path}`, message: p.message });
    return { block: value as Record<string, unknown>, details };
  }

  /** rewrites sources.yml with `edit` applied, validates the result like start-up does, and swaps it in */
  function rewrite(edit: (seq: YAMLSeq, doc: Document) => void): void {
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : 'version: "1.0"\nsources: []\n';
    const doc = parseDocument(before);
    let seq = doc.get('sources');
    if (!isSeq(seq)) {
      seq = new YAMLSeq();
      if (!isMap(doc.contents)) doc.contents = doc.createNode({ version: '1.0' }) as never;
      doc.set('sources', seq);
    }
    (seq as YAMLSeq).flow = false;
    edit(seq as YAMLSeq, doc);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    writeFileAtomic(file, doc.toString());
    const issues: ConfigIssue[] = [];
    const loaded = loadConfigFile(ctx.config.projectDir, spec, issues);
    const bad = issues.filter((i) => i.severity !== 'warning');
    if (bad.length) {
      writeFileAtomic(file, before);
      throw errors.validation('The change would make sources.yml invalid; nothing was changed.', bad.map((i) => ({ path: i.path, message: i.message })));
    }
    ctx.config.replaceFile('sources', loaded.value, loaded.resolvedPath ?? SOURCES_FILE);
  }

  const indexOf = (seq: YAMLSeq, name: string): number => seq.items.findIndex((it) => isMap(it) && it.get('name') === name);

  ctx.routes.post('/api/sources', { permission: 'source.manage', schema: { summary: 'Add a source to sources.yml (settings checked against its type\'s config schema; 422 details per field)', body: NewSource } }, async (req, reply) => {
    const b = req.body;
    const details: Array<{ path: string; message: string }> = [];
    if (!new RegExp(SOURCE_NAME).test(b.name)) details.push({ path: '/name', message: 'use lowercase letters, digits and underscores' });
    else if (d.sources.find(b.name)) details.push({ path: '/name', message: `a source named "${b.name}" already exists` });
    const { block, details: configProblems } = problemsOf(b.type, b.config);
    details.push(...configProblems);
    if (details.length) throw errors.validation(`The ${b.type} source is not valid; fix the fields named in details.`, details);
    const def = d.registry.get(b.type)!;
    const entry: Record<string, unknown> = { name: b.name, type: b.type };
    if (b.description) entry.description = b.description;
    if (b.enabled === false) entry.enabled = false;
    // only what the user gave (defaults stay implicit, as `basin source add` writes them)
    entry[blockKey(def, b.type)] = Object.fromEntries(Object.entries(b.config).filter(([, v]) => v !== '' && v !== null && v !== undefined));
    rewrite((seq, doc) => seq.add(doc.createNode(entry)));
    // a file source's folder exists from the start, so uploads and the watcher have a place
    const dir = block.directory;
    if (typeof dir === 'string' && dir && !dir.includes('://')) fs.mkdirSync(ctx.config.resolve(dir), { recursive: true });
    ctx.log.info(`source ${b.name} (${b.type}) added through the API`);
    return reply.code(201).send({ name: b.name, type: b.type, enabled: b.enabled !== false });
  });

  ctx.routes.post('/api/sources/check', { permission: 'source.manage', schema: { summary: 'Check a source\'s settings and connection before saving it', body: CheckBody } }, async (req) => {
    const { block, details } = problemsOf(req.body.type, req.body.config);
    if (details.length) throw errors.validation('The settings are not valid; fix the fields named in details.', details);
    const def = d.registry.get(req.body.type)!;
    const entry = { name: req.body.name && new RegExp(SOURCE_NAME).test(req.body.name) ? req.body.name : 'new_source', type: req.body.type, enabled: true, tags: [] };
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), 30_000);
    const secrets = new Set<string>();
    const log = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };
    try {
      const result = await def.check(buildSourceContext({ config: ctx.config, entry, block, fullRefresh: false, signal: controller.signal, log, secrets }) as never);
      let message = result.message ?? (result.ok ? 'Connection works.' : 'The check failed.');
      for (const s of secrets) if (s) message = message.split(s).join('********');
      return { ok: result.ok, message };
    } catch (e) {
      let message = e instanceof Error ? e.message : String(e);
      for (const s of secrets) if (s) message = message.split(s).join('********');
      return { ok: false, message };
    } finally {
      clearTimeout(timer);
    }
  });

  ctx.routes.patch('/api/sources/:source_name', { permission: 'source.manage', schema: { summary: 'Enable or disable a source', params: SourceParams, body: Type.Object({ enabled: Type.Boolean() }) } }, async (req) => {
    const name = req.params.source_name;
    if (!d.sources.find(name)) throw errors.notFound(`Source "${name}"`);
    rewrite((seq) => {
      const item = seq.items[indexOf(seq, name)];
      if (isMap(item)) {
        if (req.body.enabled) item.delete('enabled');
        else item.set('enabled', false);
      }
    });
    return { name, enabled: req.body.enabled };
  });

  const RemoveQuery = Type.Object({ keep_external: Type.Boolean({ default: false, description: 'skip the type\'s teardown (e.g. a replication slot is left on the database)' }) });
  ctx.routes.delete(
    '/api/sources/:source_name',
    { permission: 'source.manage', errors: [syncErrors.teardown_failed], schema: { summary: 'Remove a source from sources.yml (its loaded tables stay in the warehouse); a type that set something up outside Basin undoes it first', params: SourceParams, querystring: RemoveQuery } },
    async (req) => {
      const name = req.params.source_name;
      const entry = d.sources.find(name);
      if (!entry) throw errors.notFound(`Source "${name}"`);
      if (d.engine.isRunning(name)) throw errors.conflict('sync_in_progress', `Source "${name}" is syncing; cancel the sync or wait for it, then remove it.`);
      const def = d.registry.get(entry.type);
      let teardown: string | undefined;
      if (def?.teardown && !req.query.keep_external) {
        const secrets = new Set<string>();
        const log = { info: () => {}, warn: () => {}, error: () => {}, debug: () => {} };
        try {
          teardown = await def.teardown(buildSourceContext({ config: ctx.config, entry, block: d.sources.block(entry), fullRefresh: false, signal: AbortSignal.timeout(30_000), log, secrets }) as never);
        } catch (e) {
          let reason = e instanceof Error ? e.message : String(e);
          for (const s of secrets) if (s) reason = reason.split(s).join('********');
          throw syncErrors.teardown_failed({ source: name, reason });
        }
      }
      rewrite((seq) => void seq.items.splice(indexOf(seq, name), 1));
      ctx.log.info(`source ${name} removed through the API${teardown ? `; ${teardown}` : ''}`);
      return { ok: true, name, ...(teardown ? { teardown } : {}) };
    },
  );
}
