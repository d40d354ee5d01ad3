import fs from 'node:fs';
import { Type } from '@sinclair/typebox';
import { isMap, isSeq, parseDocument, YAMLSeq } from 'yaml';
import { writeFileAtomic, type PluginContext } from '@basin/core';
import type { Governance } from './service.js';

const Name = Type.String({ pattern: '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$', description: 'source or table name' });

/** SPEC "Governance and monitoring": drift, PII and attention endpoints. */
export function registerGovernanceRoutes(ctx: PluginContext, gov: Governance): void {
  ctx.routes.get(
    '/api/governance/schema-drift',
    {
      permission: 'governance.view',
      schema: {
        summary: 'Schema drift events (newest first) and sources flagged for attention',
        querystring: Type.Object({
          source: Type.Optional(Name),
          table: Type.Optional(Name),
          limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100 }),
          offset: Type.Integer({ minimum: 0, default: 0 }),
        }),
      },
    },
    async (req) => {
      const { source, table, limit, offset } = req.query;
      const page = gov.driftEvents({ source, table, limit, offset });
      const flagged = (await gov.attentionSources());
      return { ...page, attention_sources: [...flagged].filter((s) => !source || s === source).sort() };
    },
  );

  ctx.routes.post(
    '/api/governance/drift/:source/accept',
    { permission: 'governance.manage', schema: { summary: 'Accept the current schema as baseline and clear the attention flag', params: Type.Object({ source: Name }) } },
    async (req) => gov.accept(req.params.source),
  );

  ctx.routes.get(
    '/api/governance/pii',
    {
      permission: 'governance.view',
      schema: {
        summary: 'PII findings (masked examples only) with overrides applied',
        querystring: Type.Object({ source: Type.Optional(Name), table: Type.Optional(Name), include_dismissed: Type.Boolean({ default: false }) }),
      },
    },
    async (req) => {
      const q = req.query;
      return gov.piiFindings({ source: q.source, table: q.table, includeDismissed: q.include_dismissed });
    },
  );

  ctx.routes.get('/api/governance/pii/overrides', { permission: 'governance.view', schema: { summary: 'PII overrides from .basin/pii-overrides.yml' } }, async () => gov.overridesList());

  // the UI's override: one entry per column in pii-overrides.yml (replaced when the column has one), comments kept;
  // the overrides reader re-reads the file on its next use, so the change applies at once
  ctx.routes.post(
    '/api/governance/pii/overrides',
    {
      permission: 'governance.manage',
      schema: {
        summary: 'Set the PII override of one column (pii or not_pii) in .basin/pii-overrides.yml',
        body: Type.Object({ source: Name, table: Name, column: Type.String({ minLength: 1, maxLength: 256 }), status: Type.Union([Type.Literal('pii'), Type.Literal('not_pii')]), reason: Type.Optional(Type.String({ maxLength: 1000 })) }),
      },
    },
    async (req) => {
      const b = req.body as { source: string; table: string; column: string; status: 'pii' | 'not_pii'; reason?: string };
      const file = ctx.config.resolve('.basin/pii-overrides.yml');
      const doc = parseDocument(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : 'overrides: []\n');
      let seq = doc.get('overrides');
      if (!isSeq(seq)) {
        seq = new YAMLSeq();
        if (!isMap(doc.contents)) doc.contents = doc.createNode({}) as never;
        doc.set('overrides', seq);
      }
      const list = seq as YAMLSeq;
      list.flow = false;
      list.items = list.items.filter((it) => !(isMap(it) && it.get('source') === b.source && it.get('table') === b.table && it.get('column') === b.column));
      const entry = { source: b.source, table: b.table, column: b.column, status: b.status, set_by: req.principal?.email ?? 'local', ...(b.reason ? { reason: b.reason } : {}), updated_at: new Date(ctx.clock.now()).toISOString() };
      list.add(doc.createNode(entry));
      writeFileAtomic(file, doc.toString());
      return entry;
    },
  );

  ctx.routes.get(
    '/api/governance/attention',
    { permission: 'governance.view', schema: { summary: 'Sources needing attention: breaking schema drift, PII, last sync failed' } },
    async () => gov.attention(),
  );
}
