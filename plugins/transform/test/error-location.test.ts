// dbt errors name the model file and the line in it (DuckDB's LINE n counts lines of the wrapped, compiled statement).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { createApp } from '@basin/core';
import { mapCompiledToSource } from '../src/error-location.js';
import type { DbtRunner } from '../src/runner.js';
import { txProject, writeRawOrders } from './fixtures/project.js';

const missingComma = `{{ config(materialized='table') }}
-- orders per status
select
  status
  count(*) as orders
from {{ ref('stg_shop__orders') }}
group by status
`;
const danglingAnd = `select *
from {{ ref('stg_shop__orders') }}
where amount > 1 and
`;

test('a failed model names its file and line in the run record, the /ws event and the streamed output', async () => {
  const dir = txProject('  auto_tx: false\n', { 'tx/models/marts/by_status.sql': missingComma, 'tx/models/marts/dangling.sql': danglingAnd });
  fs.appendFileSync(path.join(dir, '.basin/project.yml'), '\ntx:\n  docs_after_run: false\n');
  fs.mkdirSync(path.join(dir, 'tx/models/staging/shop'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'tx/models/staging/shop/stg_shop__orders.sql'), 'select * from raw_shop.orders\n');
  const app = await createApp({ projectDir: dir });
  try {
    await writeRawOrders(app);
    const events: Array<{ model: string; file?: string; line?: number; error?: string }> = [];
    app.events.on('tx_run_completed', (e) => void events.push(e));
    const runner = app.container.resolve<DbtRunner>('txRunner');
    const rec = await runner.run({ command: 'run', select: 'stg_shop__orders by_status dangling' });
    assert.equal(rec.status, 'failed');
    const byStatus = rec.models.find((m) => m.name === 'by_status')!;
    assert.equal(byStatus.file, 'tx/models/marts/by_status.sql');
    assert.equal(byStatus.line, 5, byStatus.error ?? '');
    assert.match(byStatus.error!, /^tx\/models\/marts\/by_status\.sql:5: Parser Error: syntax error/);
    assert.match(byStatus.error!, /\n {2}5 \| count\(\*\) as orders\n/);
    // the original message stays below, for the compiled line
    assert.match(byStatus.error!, /LINE \d+:/);
    // an error after the last line (the wrapper's closing parenthesis) points at the model's end
    const dangling = rec.models.find((m) => m.name === 'dangling')!;
    assert.equal(dangling.line, 3, dangling.error ?? '');

    await app.events.idle();
    const ev = events.find((e) => e.model === 'by_status')!;
    assert.equal(ev.file, 'tx/models/marts/by_status.sql');
    assert.equal(ev.line, 5);
    assert.match(ev.error!, /^tx\/models\/marts\/by_status\.sql:5:/);
    const out = runner.output(rec.id)!;
    assert.ok(out.lines.some((l) => l.includes('tx/models/marts/by_status.sql:5:')), out.lines.join('\n'));
  } finally {
    await app.close();
  }
});

test('compiled lines map back through Jinja: rendered lines keep their place between copied ones', () => {
  const source = ["{{ config(materialized='view') }}", 'select', "{% for c in ['a','b'] %}", '  {{ c }},', '{% endfor %}', '  x', 'from {{ ref("t") }}', 'where y'];
  const compiled = ['', 'select', '', '  a,', '', '  b,', '', '  x', 'from "db"."main"."t"', 'where y'];
  const map = mapCompiledToSource(compiled, source);
  assert.equal(map(1), 1); // select
  assert.equal(map(7), 5); // x
  assert.equal(map(8), 6); // from: rendered, sits after x
  assert.equal(map(9), 7); // where
});
