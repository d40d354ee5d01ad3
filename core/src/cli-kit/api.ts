// One way for every CLI command to reach a project: the running server's HTTP API when one runs (the
// single writer of the warehouse), else the same API answered in this process by booting the project
// (fastify inject, as the host's administrator: whoever can read the project's files already holds it).
import { CliExit, EXIT } from '../cli.js';
import { awilix } from '../lazy-deps.js';
import type { BasinApp } from '../app.js';
import type { CliContext } from '../plugin/types.js';
import type { Principal } from '../http/principal.js';
import { runningServer, type ServerInfo } from '../server-file.js';
import { apiKeyFor } from './credentials.js';
import { httpCall } from './http-call.js';

export interface ProjectApi {
  /** 'server': a running server answers; 'local': this process booted the project */
  readonly mode: 'server' | 'local';
  readonly server: ServerInfo | null;
  /** the booted app in local mode */
  readonly app: BasinApp | null;
  /** calls the API; a non-2xx answer ends the command with the server's message and exit code 1 */
  request<T = any>(method: string, urlPath: string, body?: unknown): Promise<T>;
  /** like request, but returns the status and body instead of throwing */
  raw<T = any>(method: string, urlPath: string, body?: unknown): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

export interface OpenApiOptions {
  /** the command's name for messages, e.g. "basin schedule list" */
  command: string;
  /** may the command boot the project itself when no server runs (safe offline)? default true */
  local?: boolean;
}

/** what a refused or failed call tells the user to do */
function failure(command: string, server: ServerInfo | null, status: number, body: any): CliExit {
  const msg = body?.error?.message ?? `HTTP ${status}`;
  if (status === 401) return new CliExit(EXIT.failure, `${command}: the Basin server at ${server?.url} needs an API key: run "basin login" or set BASIN_API_KEY (${msg}).`);
  if (status === 403) return new CliExit(EXIT.failure, `${command}: your API key may not do this${body?.error?.details?.permission ? ` (needs ${body.error.details.permission})` : ''}: ${msg}`);
  if (status === 404 || status === 400 || status === 422 || status === 409) return new CliExit(EXIT.failure, `${command}: ${msg}`);
  return new CliExit(EXIT.failure, `${command}: the server answered ${status}: ${msg}`);
}

export async function openProjectApi(cli: CliContext, projectDir: string, opts: OpenApiOptions): Promise<ProjectApi> {
  const server = runningServer(projectDir);
  if (server) {
    const base = server.url.replace(/\/$/, '');
    const raw = async (method: string, urlPath: string, body?: unknown) => {
      const headers: Record<string, string> = { 'x-requested-with': 'XMLHttpRequest', accept: 'application/json' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const key = apiKeyFor(base);
      if (key) headers.authorization = `Bearer ${key}`;
      let res: { status: number; text: string };
      try {
        res = await httpCall(`${base}${urlPath}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      } catch (e) {
        throw new CliExit(EXIT.failure, `${opts.command}: a Basin server (pid ${server.pid}) holds this project but does not answer at ${base} (${(e as Error).message}); stop it with "basin stop" or retry.`);
      }
      const text = res.text;
      let parsed: any = {};
      try {
        parsed = text ? JSON.parse(text) : {};
      } catch {
        parsed = text;
      }
      return { status: res.status, body: parsed };
    };
    return {
      mode: 'server',
      server,
      app: null,
      raw,
      async request(method, urlPath, body) {
        const r = await raw(method, urlPath, body);
        if (r.status >= 300) throw failure(opts.command, server, r.status, r.body);
        return r.body;
      },
      async close() {},
    };
  }
  if (opts.local === false) {
    throw new CliExit(EXIT.failure, `${opts.command}: no Basin server is running for ${projectDir}; start one with "basin start --detach --project ${projectDir}".`);
  }
  let app: BasinApp | null = null;
  const host = {
    async authenticate(): Promise<Principal> {
      return { kind: 'auth_disabled', userId: null, email: null, role: 'admin', permissions: new Set(app ? app.permissions.forRole('admin') : []) };
    },
  };
  // notices go to stderr: stdout carries the command's output (--json, CSV, the MCP stdio channel)
  app = await cli.boot({ projectDir, logger: false, notice: (m) => void cli.stderr.write(`${m}\n`), overrides: { authenticator: awilix().asValue(host) } });
  const booted = app;
  const raw = async (method: string, urlPath: string, body?: unknown) => {
    const res = await booted.http.inject({
      method: method as 'GET',
      url: urlPath,
      headers: { 'x-requested-with': 'XMLHttpRequest', accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    let parsed: any = {};
    try {
      parsed = res.body ? JSON.parse(res.body) : {};
    } catch {
      parsed = res.body;
    }
    return { status: res.statusCode, body: parsed };
  };
  return {
    mode: 'local',
    server: null,
    app: booted,
    raw,
    async request(method, urlPath, body) {
      const r = await raw(method, urlPath, body);
      if (r.status >= 300) throw failure(opts.command, null, r.status, r.body);
      return r.body;
    },
    close: () => booted.close(),
  };
}

/** opens the API, runs fn, closes (the local app releases the warehouse) */
export async function withProjectApi<T>(cli: CliContext, projectDir: string, opts: OpenApiOptions, fn: (api: ProjectApi) => Promise<T>): Promise<T> {
  const api = await openProjectApi(cli, projectDir, opts);
  try {
    return await fn(api);
  } finally {
    await api.close();
  }
}
