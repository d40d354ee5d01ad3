/**
 * Tool descriptions for agents (`GET /api/tools`), generated from the OpenAPI document so they never
 * drift from the real routes. Only operations the caller's permissions allow are listed.
 */
export interface AgentTool {
  name: string;
  method: string;
  path: string;
  description: string;
  permission: string;
  parameters: { path?: unknown; query?: unknown; body?: unknown };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function toolsFromOpenApi(doc: any, allowed: (permission: string) => boolean): AgentTool[] {
  const tools: AgentTool[] = [];
  for (const [p, ops] of Object.entries<Record<string, any>>(doc?.paths ?? {})) {
    if (!p.startsWith('/api/')) continue;
    for (const method of METHODS) {
      const op = ops?.[method];
      if (!op) continue;
      const permission: string = op['x-permission'] ?? 'public';
      if (!allowed(permission)) continue;
      const params = (op.parameters ?? []) as Array<{ in: string; name: string; required?: boolean; schema?: unknown; description?: string }>;
      const group = (where: string) => {
        const list = params.filter((x) => x.in === where);
        if (!list.length) return undefined;
        return {
          type: 'object',
          properties: Object.fromEntries(list.map((x) => [x.name, { ...(x.schema as object), ...(x.description ? { description: x.description } : {}) }])),
          required: list.filter((x) => x.required).map((x) => x.name),
        };
      };
      const body = op.requestBody?.content?.['application/json']?.schema;
      tools.push({
        name: op.operationId ?? `${method}_${p.replace(/^\/api\//, '').replace(/\{([^}]+)\}/g, 'by_$1').replace(/[^A-Za-z0-9]+/g, '_').replace(/_+$/, '')}`,
        method: method.toUpperCase(),
        path: p,
        description: [op.summary, op.description].filter(Boolean).join('. ') || `${method.toUpperCase()} ${p}`,
        permission,
        parameters: { path: group('path'), query: group('query'), ...(body ? { body } : {}) },
      });
    }
  }
  return tools.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}
