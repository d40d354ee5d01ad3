// `basin mcp`: the Model Context Protocol over stdio for a coding agent on this host. With a server
// running for the project, messages are relayed to its /mcp endpoint with the API key (the server
// filters tools by the key's role and audits every call); without one, the project is opened here
// as the host's administrator and calls are audited to the project's audit log.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiKeyFor, BASIN_VERSION, CliExit, EXIT, openProjectApi, runningServer, type CliContext } from '@basin/core';
import { authRef } from '@basin/plugin-auth/contract';
import { auditArgs, buildMcpServer } from './tools.js';

export async function runMcpStdio(cli: CliContext, projectDir: string): Promise<void> {
  const server = runningServer(projectDir);
  const stdio = new StdioServerTransport();
  if (server) {
    const base = server.url.replace(/\/$/, '');
    const key = apiKeyFor(base);
    if (!key) cli.stderr.write('basin mcp: no API key (BASIN_API_KEY or "basin login"); the server will refuse the calls if auth is on.\n');
    const upstream = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} } });
    const closed = new Promise<void>((resolve) => {
      stdio.onclose = () => resolve();
    });
    stdio.onmessage = (m) => void upstream.send(m).catch((e) => cli.stderr.write(`basin mcp: ${(e as Error).message}\n`));
    upstream.onmessage = (m) => void stdio.send(m);
    upstream.onerror = (e) => cli.stderr.write(`basin mcp: ${e.message}\n`);
    await upstream.start();
    await stdio.start();
    await closed;
    await upstream.close();
    return;
  }
  const api = await openProjectApi(cli, projectDir, { command: 'basin mcp' });
  const audit = api.app?.tryResolve(authRef)?.audit;
  try {
    const mcp = await buildMcpServer(
      (m, p, b) => api.raw(m, p, b),
      (e) => audit?.record({ actor: null, action: 'mcp.tool_call', target: e.tool, ip: null, outcome: e.outcome, details: { transport: 'stdio', args: auditArgs(e.args), ...(e.error ? { error: e.error } : {}) } }),
      BASIN_VERSION,
    );
    const closed = new Promise<void>((resolve) => {
      mcp.server.onclose = () => resolve();
    });
    await mcp.connect(stdio);
    await closed;
  } catch (e) {
    if (e instanceof CliExit) throw e;
    throw new CliExit(EXIT.failure, `basin mcp: ${(e as Error).message}`);
  } finally {
    await api.close();
  }
}
