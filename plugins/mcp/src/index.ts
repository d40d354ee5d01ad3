import path from 'node:path';
import { coreServices, definePlugin, projectOption, withExamples } from '@basin/core';
import { authRef } from '@basin/plugin-auth/contract';

/**
 * The Model Context Protocol for coding agents: `basin mcp` over stdio and POST /mcp over streamable
 * HTTP, with tools for sources, catalog, lineage, models, read-only queries, logs, attention and
 * drift, and (for roles that may) syncs and model runs. The SDK loads on first use.
 */
export default definePlugin({
  name: 'mcp',
  optionalDependsOn: ['auth', 'catalog'],
  commands(cli) {
    withExamples(
      projectOption(cli.program.command('mcp')).description('Serve the Model Context Protocol over stdio for a coding agent (through the running server when there is one; BASIN_API_KEY or "basin login")'),
      ['basin mcp --project ~/acme', 'claude mcp add basin -- basin mcp --project ~/acme'],
    ).action(async (o: { project: string }) => (await import('./stdio.js')).runMcpStdio(cli, path.resolve(o.project)));
  },
  register(ctx) {
    const audit = () => ctx.tryResolve(authRef)?.audit;
    ctx.routes.post('/mcp', { permission: 'auth', schema: { summary: 'Model Context Protocol (streamable HTTP, stateless); tools filtered by the caller like /api/tools', hide: true } }, async (req, reply) => {
      const { handleMcpPost } = await import('./http.js');
      await handleMcpPost(ctx.resolve(coreServices.app), audit(), req, reply);
    });
    // stateless server: no server-initiated stream and no session to delete
    const notAllowed = { permission: 'auth', schema: { summary: 'Not used by the stateless MCP endpoint (405)', hide: true } };
    const refuse = async (_req: unknown, reply: { status(n: number): { header(k: string, v: string): unknown } }) => {
      reply.status(405).header('allow', 'POST');
      return { jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP endpoint is stateless; use POST.' }, id: null };
    };
    ctx.routes.get('/mcp', notAllowed, refuse);
    ctx.routes.delete('/mcp', notAllowed, refuse);
  },
});
