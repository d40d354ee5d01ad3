import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBWarehouseClient, Warehouse } from '@basin/core';
import { scanTable } from '../src/pii/scanner.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The committed evaluation sets (written by make-pii-eval.ts): the one tuned on, and a held-out one. */
export const EVAL_SETS = { tuning: path.join(HERE, 'pii'), holdout: path.join(HERE, 'pii-holdout') } as const;

interface TruthRow {
  table: string;
  column: string;
  type: string;
  entity: string | null;
}

export interface TypeScore {
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
}

export interface EvalReport {
  overall: TypeScore;
  byType: Record<string, TypeScore>;
  columns: { pii: number; lookalikes: number };
  /** columns judged wrongly: `table.column: expected X, got Y` */
  errors: string[];
}

const score = (tp: number, fp: number, fn: number): TypeScore => ({ tp, fp, fn, precision: tp + fp ? tp / (tp + fp) : 1, recall: tp + fn ? tp / (tp + fn) : 1 });

/**
 * Loads every table of the set into a fresh DuckDB file with its declared column types (DATE and
 * TIMESTAMP included), runs the same scan as a sync does (100-row sample, default thresholds), and
 * scores each column against the ground truth: a finding of the wrong type is a false positive for
 * that type and a miss for the expected one.
 */
export async function evaluatePiiSet(dir: string, opts = { sampleRows: 100, minMatchShare: 0.5, minConfidence: 0.5 }): Promise<EvalReport> {
  const truth = JSON.parse(fs.readFileSync(path.join(dir, 'ground-truth.json'), 'utf8')) as TruthRow[];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-pii-eval-'));
  const wh = new Warehouse({ dbPath: path.join(tmp, 'w.db'), servingPath: path.join(tmp, 's.db') });
  await wh.open();
  try {
    const tables = [...new Set(truth.map((t) => t.table))];
    await wh.write(async (c) => {
      await c.run('CREATE SCHEMA pii_eval');
      for (const table of tables) {
        const cols = truth.filter((t) => t.table === table);
        const types = cols.map((t) => `'${t.column.replace(/'/g, "''")}': '${t.type}'`).join(', ');
        const file = path.join(dir, `${table}.csv`).replace(/'/g, "''");
        await c.run(`CREATE TABLE pii_eval."${table}" AS SELECT * FROM read_csv('${file}', header = true, columns = {${types}}, dateformat = '%Y-%m-%d')`);
      }
    });
    const counts = new Map<string, { tp: number; fp: number; fn: number }>();
    const bump = (type: string, k: 'tp' | 'fp' | 'fn') => {
      const c = counts.get(type) ?? { tp: 0, fp: 0, fn: 0 };
      c[k]++;
      counts.set(type, c);
    };
    const errors: string[] = [];
    for (const table of tables) {
      const found = new Map((await scanTable(new DuckDBWarehouseClient(wh), 'pii_eval', table, opts.sampleRows, opts)).map((f) => [f.column, f.entity_type as string]));
      for (const t of truth.filter((x) => x.table === table)) {
        const got = found.get(t.column) ?? null;
        if (t.entity && got === t.entity) bump(t.entity, 'tp');
        else if (got !== t.entity) {
          if (got) bump(got, 'fp');
          if (t.entity) bump(t.entity, 'fn');
          errors.push(`${table}.${t.column}: expected ${t.entity}, got ${got}`);
        }
      }
    }
    const byType: Record<string, TypeScore> = {};
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const [type, c] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
      byType[type] = score(c.tp, c.fp, c.fn);
      tp += c.tp;
      fp += c.fp;
      fn += c.fn;
    }
    return { overall: score(tp, fp, fn), byType, columns: { pii: truth.filter((t) => t.entity).length, lookalikes: truth.filter((t) => !t.entity).length }, errors };
  } finally {
    await wh.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
