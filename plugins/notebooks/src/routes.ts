import { type PluginContext } from '@basin/core';
import { Type } from '@sinclair/typebox';
import { NOTEBOOK_NAME } from './names.js';
import type { Caller, NotebookService } from './service.js';
import { TEMPLATES } from './templates.js';
import { notebookErrors } from './errors.js';

const Name = Type.Object({ name: Type.String({ minLength: 1, maxLength: 64, pattern: NOTEBOOK_NAME }) });
const caller = (req: { principal: { userId: string | null; email: string | null } | null }): Caller => ({ id: req.principal?.userId ?? null, email: req.principal?.email ?? null });

/** SPEC "Notebooks" endpoints and the "Notebook lock" state table. */
export function registerNotebookRoutes(ctx: PluginContext, svc: () => NotebookService): void {
  const r = ctx.routes;
  r.get('/api/notebooks', { permission: 'notebooks.view', schema: { summary: 'Notebooks with their lock status' } }, async () => svc().list());

  r.post(
    '/api/notebooks',
    { errors: [notebookErrors.invalid_notebook_name, notebookErrors.invalid_template, notebookErrors.notebook_exists], response: { 201: Type.Unknown({ description: 'the created resource' }) },
      permission: 'notebooks.execute',
      schema: {
        summary: 'Create a notebook from a template',
        body: Type.Object(
          {
            name: Type.String({ minLength: 1, maxLength: 64, pattern: NOTEBOOK_NAME }),
            template: Type.Optional(Type.Union(TEMPLATES.map((t) => Type.Literal(t)))),
          },
          { additionalProperties: false },
        ),
      },
    },
    async (req, reply) => {
      reply.code(201);
      return svc().create(req.body.name, req.body.template);
    },
  );

  r.delete('/api/notebooks/:name', { errors: [notebookErrors.invalid_notebook_name, notebookErrors.notebook_locked], response: { 204: null }, permission: 'notebooks.execute', schema: { summary: 'Delete a notebook (not while another user holds its lock)', params: Name } }, async (req, reply) => {
    await svc().remove(req.params.name, caller(req));
    reply.code(204);
  });

  r.post('/api/notebooks/:name/lock', { errors: [notebookErrors.invalid_notebook_name, notebookErrors.notebook_locked, notebookErrors.notebook_invalid, notebookErrors.notebook_servers_busy, notebookErrors.notebook_port_unavailable, notebookErrors.notebook_server_failed], permission: 'notebooks.execute', schema: { summary: "Lock a notebook and start its server; 409 with the holder when another user has it", params: Name } }, async (req) =>
    svc().lock(req.params.name, caller(req)),
  );
  r.post('/api/notebooks/:name/heartbeat', { errors: [notebookErrors.invalid_notebook_name, notebookErrors.notebook_not_locked], permission: 'notebooks.execute', schema: { summary: "Refresh the caller's lock", params: Name } }, async (req) => svc().heartbeat(req.params.name, caller(req)));
  r.post('/api/notebooks/:name/release', { errors: [notebookErrors.invalid_notebook_name, notebookErrors.notebook_not_locked], permission: 'notebooks.execute', schema: { summary: "Release the caller's lock and stop the server", params: Name } }, async (req) =>
    svc().release(req.params.name, caller(req)),
  );
  r.delete('/api/notebooks/:name/lock', { errors: [notebookErrors.invalid_notebook_name], permission: 'notebooks.manage', schema: { summary: "Force-release anyone's lock", params: Name } }, async (req) =>
    svc().forceRelease(req.params.name, caller(req)),
  );
  r.post(
    '/api/notebooks/:name/copy',
    { errors: [notebookErrors.invalid_notebook_name, notebookErrors.notebook_exists], response: { 201: Type.Unknown({ description: 'the created resource' }) },
      permission: 'notebooks.execute',
      schema: {
        summary: 'Copy a notebook (locked or not); default name <name>-copy',
        params: Name,
        body: Type.Optional(Type.Object({ name: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: NOTEBOOK_NAME })) }, { additionalProperties: false })),
      },
    },
    async (req, reply) => {
      reply.code(201);
      return svc().copy(req.params.name, req.body?.name);
    },
  );
}
