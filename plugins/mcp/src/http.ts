// POST /mcp: the Model Context Protocol over streamable HTTP (stateless: one server per request, as
// the SDK recommends for servers without sessions). The caller's own credentials travel with every
// tool's API call, so the API decides what the caller may do, exactly as for a direct request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { BASIN_VERSION, type BasinApp } from '@basin/core';
import { auditArgs, buildMcpServer, type ApiCaller } from './tools.js';

export interface AuditSink {
  record(e: { actor?: { id: string | null; email: string | null } | null; action: string; target?: string | null; ip?: string | null; outcome: 'success' | 'failure' | 'denied'; details?: Record<string, unknown> }): void;
}

/** an API caller that replays the request's credentials on in-process requests */
export function injectCaller(app: BasinApp, req: FastifyRequest): ApiCaller {
  const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' };
  if (req.headers.authorization) headers.authorization = req.headers.authorization;
  if (req.headers.cookie) headers.cookie = req.headers.cookie;
  return async (method, url, body) => {
    const res = await app.http.inject({ method: method as 'GET', url, headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, payload: body === undefined ? undefined : JSON.stringify(body), remoteAddress: req.ip });
    let parsed: unknown = {};
    try {
      parsed = res.body ? JSON.parse(res.body) : {};
    } catch {
      parsed = res.body;
    }
    return { status: res.statusCode, body: parsed };
  };
}

export async function handleMcpPost(app: BasinApp, audit: AuditSink | undefined, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const p = req.principal;
  const server = await buildMcpServer(
    injectCaller(app, req),
    (e) =>
      audit?.record({
        actor: p ? { id: p.userId, email: p.email } : null,
        action: 'mcp.tool_call',
        target: e.tool,
        ip: req.ip,
        outcome: e.outcome,
        details: { transport: 'http', args: auditArgs(e.args), ...(e.error ? { error: e.error } : {}) },
      }),
    BASIN_VERSION,
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  reply.hijack();
  reply.raw.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req.raw, reply.raw, req.body);
}
