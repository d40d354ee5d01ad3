import { Type } from '@sinclair/typebox';
import type { PluginContext } from '@basin/core';
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

  ctx.routes.get(
    '/api/governance/attention',
    { permission: 'governance.view', schema: { summary: 'Sources needing attention: breaking schema drift, PII, last sync failed' } },
    async () => gov.attention(),
  );
}
