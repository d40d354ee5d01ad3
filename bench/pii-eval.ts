/**
 * PII detection quality on the multilingual evaluation sets (plugins/governance/eval: 8 tables, one
 * per locale plus a mixed one, with ground truth; `tuning` was looked at while writing the
 * detectors, `holdout` was not). Prints precision and recall per entity type and overall.
 * Run: node --conditions=development --import tsx bench/pii-eval.ts
 */
import { EVAL_SETS, evaluatePiiSet } from '../plugins/governance/eval/pii-eval.js';

const pct = (x: number) => x.toFixed(3);
for (const [name, dir] of Object.entries(EVAL_SETS)) {
  const r = await evaluatePiiSet(dir);
  console.log(`\n${name} set: ${r.columns.pii} PII columns, ${r.columns.lookalikes} look-alikes`);
  console.log('type            precision  recall   tp  fp  fn');
  for (const [type, s] of Object.entries(r.byType)) console.log(`${type.padEnd(15)} ${pct(s.precision).padStart(9)} ${pct(s.recall).padStart(7)} ${String(s.tp).padStart(4)} ${String(s.fp).padStart(3)} ${String(s.fn).padStart(3)}`);
  console.log(`${'overall'.padEnd(15)} ${pct(r.overall.precision).padStart(9)} ${pct(r.overall.recall).padStart(7)} ${String(r.overall.tp).padStart(4)} ${String(r.overall.fp).padStart(3)} ${String(r.overall.fn).padStart(3)}`);
  for (const e of r.errors) console.log(`  wrong: ${e}`);
}
