import fs from 'node:fs';
import path from 'node:path';
import { CliExit, EXIT, painter, printResult, withProjectApi, writeFileAtomic, type CliContext } from '@basin/core';
import type { TxRunRecord } from '../types.js';

const LAYERS = ['staging', 'intermediate', 'marts'] as const;
const IDENT = /^[a-z_][a-z0-9_]*$/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** the SQL of a new model: a CTE over what it reads, ready to edit */
export function modelTemplate(name: string, from: string | undefined, materialized: string | undefined): string {
  const cfg = materialized ? `{{ config(materialized='${materialized}') }}\n\n` : '';
  const rel = !from ? null : from.includes('.') ? `{{ source('${from.split('.')[0]}', '${from.split('.')[1]}') }}` : `{{ ref('${from}') }}`;
  const source = rel ? `with source as (\n\n    select * from ${rel}\n\n),\n\n` : `with `;
  return `${cfg}-- ${name}: describe what one row means and where it comes from.\n${source}final as (\n\n    select\n        *\n    from ${rel ? 'source' : '(select 1 as id)'}\n\n)\n\nselect * from final\n`;
}

export async function newModel(cli: CliContext, projectDir: string, name: string, o: { layer: string; from?: string; materialized?: string; description?: string; json?: boolean }): Promise<void> {
  if (!IDENT.test(name)) throw new CliExit(EXIT.config, `basin model new: "${name}" is not a valid model name (lowercase letters, digits and underscores, not starting with a digit).`);
  if (!(LAYERS as readonly string[]).includes(o.layer)) throw new CliExit(EXIT.config, `basin model new: --layer must be one of ${LAYERS.join(', ')}.`);
  if (o.materialized && !['view', 'table', 'incremental', 'ephemeral'].includes(o.materialized)) throw new CliExit(EXIT.config, 'basin model new: --materialized must be view, table, incremental or ephemeral.');
  if (o.from && !/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)?$/.test(o.from)) throw new CliExit(EXIT.config, `basin model new: --from "${o.from}" must be a model name or source.table.`);
  const models = path.join(projectDir, 'tx', 'models');
  if (!fs.existsSync(path.join(projectDir, 'tx', 'dbt_project.yml'))) throw new CliExit(EXIT.config, `basin model new: no dbt project in ${path.join(projectDir, 'tx')} (create the project with "basin init").`);
  const existing = findModelFile(models, name);
  if (existing) throw new CliExit(EXIT.failure, `basin model new: a model named "${name}" exists already: ${path.relative(projectDir, existing)}.`);
  const sqlFile = path.join(models, o.layer, `${name}.sql`);
  const ymlFile = path.join(models, o.layer, `_${name}.yml`);
  writeFileAtomic(sqlFile, modelTemplate(name, o.from, o.materialized));
  writeFileAtomic(ymlFile, `version: 2\n\nmodels:\n  - name: ${name}\n    description: ${JSON.stringify(o.description ?? `TODO: what ${name} holds`)}\n    columns: []\n`);
  const files = [sqlFile, ymlFile].map((f) => path.relative(projectDir, f));
  if (o.json) return void cli.stdout.write(`${JSON.stringify({ model: name, layer: o.layer, files }, null, 2)}\n`);
  cli.stdout.write(`Created model ${name}: ${files.join(', ')}.\nEdit the SQL, then run it with "basin model run ${name}" (or try it first on a copy: "basin tx dev run --select ${name}").\n`);
}

function findModelFile(dir: string, name: string): string | null {
  if (!fs.existsSync(dir)) return null;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      const f = findModelFile(p, name);
      if (f) return f;
    } else if (e.name === `${name}.sql` || e.name === `${name}.py`) return p;
  }
  return null;
}

export async function listModels(cli: CliContext, projectDir: string, o: { json?: boolean }): Promise<void> {
  const d = await withProjectApi(cli, projectDir, { command: 'basin model list' }, (api) => api.request<any>('GET', '/api/tx/models'));
  const rows = (x: any) =>
    (Array.isArray(x) ? x : (x.models ?? []))
      .filter((m: any) => (m.resource_type ?? 'model') === 'model')
      .map((m: any) => ({ ...m, status: m.last_run?.status ?? m.status ?? 'not run', last: m.last_run?.finished_at ?? m.last_run_at ?? '' }));
  printResult(cli, d, { json: o.json, rows, columns: ['name', 'layer', { key: 'materialization', title: 'MATERIALIZED' }, 'status', { key: 'last', title: 'LAST RUN' }], empty: 'No models yet: create one with "basin model new <name>".' });
}

export async function runModel(cli: CliContext, projectDir: string, name: string, o: { downstream?: boolean; fullRefresh?: boolean; json?: boolean }): Promise<void> {
  const rec = await withProjectApi(cli, projectDir, { command: 'basin model run' }, async (api) => {
    const started = await api.request<TxRunRecord>('POST', '/api/tx/runs', { command: 'run', select: `${name}${o.downstream ? '+' : ''}`, full_refresh: !!o.fullRefresh });
    let after = 0;
    for (;;) {
      const out = await api.request<{ lines: string[]; next: number; finished: boolean }>('GET', `/api/tx/runs/${started.id}/output?after=${after}`);
      if (!o.json) for (const l of out.lines) cli.stdout.write(`${l}\n`);
      after = out.next;
      if (out.finished) break;
      await sleep(300);
    }
    return api.request<TxRunRecord>('GET', `/api/tx/runs/${started.id}`);
  });
  if (o.json) cli.stdout.write(`${JSON.stringify(rec, null, 2)}\n`);
  else cli.stdout.write(`Run ${rec.id}: ${painter(cli.stdout).status(rec.status)}${rec.error ? ` (${rec.error})` : ''}\n`);
  if (rec.status !== 'succeeded') throw new CliExit(EXIT.failure);
}
