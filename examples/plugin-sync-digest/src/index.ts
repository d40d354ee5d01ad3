import { fileURLToPath } from 'node:url';
import { defineErrors, definePlugin, grantedFrom } from '@basin/core';
import type { SyncCompleted } from '@basin/plugin-sync/contract';
import { Type } from '@sinclair/typebox';

/**
 * An example plugin written against Basin's public contracts only (`@basin/core` and another
 * plugin's `./contract`): it keeps a digest of the syncs that completed since start-up and shows it
 * on a page. Install it in a project by listing it in `.basin/project.yml`:
 *   plugins: [ "@basin-examples/plugin-sync-digest" ]   (or a path to this folder)
 */

/** its permission: who may read the digest (viewers and up) */
export const digestPermissions = {
  view: { name: 'digest.view', roles: grantedFrom.viewer },
};

/** its error codes, declared once */
export const digestErrors = defineErrors('sync-digest', {
  digest_source_unknown: { status: 404, message: (a: { source: string }) => `No sync of "${a.source}" completed since the server started.` },
});

const SourceDigest = Type.Object({
  source: Type.String(),
  syncs: Type.Integer({ minimum: 0 }),
  rows: Type.Integer({ minimum: 0 }),
  last_completed_at: Type.String({ format: 'date-time' }),
});
type SourceDigest = typeof SourceDigest.static;

export default definePlugin({
  name: 'sync-digest',
  optionalDependsOn: ['sync'],
  permissions: Object.values(digestPermissions),
  register(ctx) {
    const digest = new Map<string, SourceDigest>();
    // the event listener: the payload type comes from the sync plugin's contract
    ctx.events.on('sync_completed', (e: SyncCompleted, envelope) => {
      const prev = digest.get(e.source);
      digest.set(e.source, { source: e.source, syncs: (prev?.syncs ?? 0) + 1, rows: (prev?.rows ?? 0) + e.rows, last_completed_at: envelope.timestamp });
    });

    ctx.routes.get(
      '/api/sync-digest',
      { permission: digestPermissions.view.name, schema: { summary: 'Syncs completed per source since start-up' }, response: { 200: Type.Object({ sources: Type.Array(SourceDigest) }) } },
      async () => ({ sources: [...digest.values()] }),
    );
    ctx.routes.get(
      '/api/sync-digest/:source',
      {
        permission: digestPermissions.view.name,
        schema: { summary: "One source's digest", params: Type.Object({ source: Type.String({ minLength: 1, maxLength: 64 }) }) },
        response: { 200: SourceDigest },
        errors: [digestErrors.digest_source_unknown],
      },
      // req.params is typed from the schema: { source: string }
      async (req) => {
        const d = digest.get(req.params.source);
        if (!d) throw digestErrors.digest_source_unknown({ source: req.params.source });
        return d;
      },
    );

    // the page: the shell serves it at /sync-digest and lists it for users with the permission
    ctx.page({ path: '/sync-digest', title: 'Sync digest', file: fileURLToPath(new URL('../ui/sync-digest.js', import.meta.url)), permission: digestPermissions.view.name });
  },
});
