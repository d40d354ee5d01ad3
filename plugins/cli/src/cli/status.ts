import { painter, renderTable, terminalWidth, withProjectApi, type CliContext } from '@basin/core';

interface SourceItem {
  name: string;
  type: string;
  enabled: boolean;
  status: string;
  last_sync: string | null;
  row_count: number;
  needs_attention: boolean;
}

/** `basin status`: platform health, every source with its last run, and what needs attention. */
export async function runStatus(cli: CliContext, projectDir: string, o: { json?: boolean }): Promise<void> {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const data = await withProjectApi(cli, projectDir, { command: 'basin status' }, async (api) => {
    const platform = await api.request('GET', '/api/status');
    const sources = (await api.request<SourceItem[]>('GET', '/api/sources')) ?? [];
    const att = await api.raw('GET', '/api/governance/attention');
    return { server: api.server ? { url: api.server.url, pid: api.server.pid } : null, platform, sources, attention: att.status === 200 ? att.body : [] };
  });
  if (o.json) return out(JSON.stringify(data, null, 2));
  const p = painter(cli.stdout);
  out(`${p.bold('Basin')} ${data.platform.version}: ${p.status(data.platform.status)}${data.server ? `, server running at ${data.server.url} (pid ${data.server.pid})` : ', no server running (answered from the project files)'}`);
  out(`Warehouse: ${p.status(data.platform.warehouse?.status ?? 'unknown')}${data.platform.warehouse?.serving_copy ? `, serving copy ${data.platform.warehouse.serving_copy.age_seconds}s old` : ''}`);
  for (const c of data.platform.companions ?? []) out(`  ${c.name}: ${p.status(c.state)}${c.detail ? ` (${c.detail})` : ''}`);
  out('');
  if (!data.sources.length) out('No sources yet: add one with "basin source add".');
  else
    out(
      renderTable(
        data.sources.map((s) => ({ ...s, enabled: s.enabled ? 'yes' : 'no', attention: s.needs_attention ? 'attention' : '' })),
        ['name', 'type', 'enabled', { key: 'status', paint: p.status }, { key: 'last_sync', title: 'LAST SYNC' }, { key: 'row_count', title: 'ROWS' }, { key: 'attention', title: '', paint: p.red }],
        terminalWidth(cli.stdout),
      ),
    );
  const attention = data.attention as Array<{ source: string; reasons: string[] }>;
  if (attention.length) {
    out('');
    out(p.yellow('Needs attention:'));
    for (const a of attention) out(`  ${a.source}: ${a.reasons.join(', ')}`);
  }
}
