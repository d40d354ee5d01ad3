// `basin catalog search|lineage|profile|impact`: the data catalog through the API.
import path from 'node:path';
import { printResult, projectOption, withExamples, withProjectApi, type CliContext } from '@basin/core';

const enc = encodeURIComponent;

export function registerCatalogCommands(cli: CliContext): void {
  const cat = cli.program.command('catalog').description('Data catalog: search, lineage, impact, column profiles');
  const api = <T>(o: { project: string }, name: string, method: string, url: string) => withProjectApi(cli, path.resolve(o.project), { command: `basin catalog ${name}` }, (a) => a.request<T>(method, url));
  withExamples(projectOption(cat.command('search').argument('<text>', 'at least 2 characters')).option('--json', 'print JSON (as GET /api/catalog/search)').description('Search table, model and column names and descriptions'), [
    'basin catalog search customer',
    'basin catalog search email --json',
  ]).action(async (text: string, o: { project: string; json?: boolean }) => {
    const d = await api<any>(o, 'search', 'GET', `/api/catalog/search?q=${enc(text)}`);
    printResult(cli, d, { json: o.json, rows: (x) => (Array.isArray(x) ? x : (x.results ?? x.items ?? [])).map((r: any) => ({ ...r, matched: (r.matches ?? []).map((m: any) => `${m.field}: ${m.value}`).join('; ') })), columns: ['kind', 'layer', 'name', 'score', { key: 'matched', title: 'MATCHED' }], empty: `Nothing matches "${text}".` });
  });
  withExamples(
    projectOption(cat.command('lineage').argument('[model]', 'show what is downstream of this model (impact)')).option('--json', 'print JSON (as GET /api/catalog/lineage, or /api/catalog/impact/<model>)').description('The lineage graph, or the impact of changing one model'),
    ['basin catalog lineage', 'basin catalog lineage stg_shop__orders'],
  ).action(async (model: string | undefined, o: { project: string; json?: boolean }) => {
    if (model) {
      const d = await api<any>(o, 'lineage', 'GET', `/api/catalog/impact/${enc(model)}`);
      if (o.json) return void cli.stdout.write(`${JSON.stringify(d, null, 2)}\n`);
      const walk = (n: any, depth: number): void => {
        cli.stdout.write(`${'  '.repeat(depth)}${depth ? '└ ' : ''}${depth ? (n.name ?? n.id) : (d.model ?? model)}\n`);
        for (const c of n.children ?? n.downstream ?? []) walk(c, depth + 1);
      };
      walk(d, 0);
      cli.stdout.write(`${d.total ?? d.count ?? 0} downstream node(s).\n`);
      return;
    }
    const d = await api<any>(o, 'lineage', 'GET', '/api/catalog/lineage');
    printResult(cli, d, { json: o.json, rows: (x) => (x.edges ?? []).map((e: any) => ({ from: e.from ?? e.source, to: e.to ?? e.target })), columns: ['from', 'to'], empty: 'No lineage yet (load data and run models).', footer: (x) => `${(x.nodes ?? []).length} node(s), ${(x.edges ?? []).length} edge(s).` });
  });
  withExamples(
    projectOption(cat.command('profile').argument('<table>', 'source.table (raw table) to profile')).option('--json', 'print JSON (as POST /api/catalog/<source>/<table>/profile)').description('Profile a table in one pass: type, nulls, distinct, min, max per column'),
    ['basin catalog profile shop.orders'],
  ).action(async (table: string, o: { project: string; json?: boolean }) => {
    const [source, name] = table.includes('.') ? table.split('.', 2) : ['', table];
    const d = await api<any>(o, 'profile', 'POST', `/api/catalog/${enc(source!)}/${enc(name!)}/profile`);
    printResult(cli, d, { json: o.json, rows: (x) => (Array.isArray(x) ? x : (x.columns ?? [])), columns: ['name', 'type', { key: 'null_percentage', title: 'NULL %' }, { key: 'distinct_count', title: 'DISTINCT' }, 'min', 'max'], footer: (x) => (x.row_count !== undefined ? `${x.row_count} row(s), read from ${x.read_from ?? 'the warehouse'}` : null), empty: 'No columns.' });
  });
}
