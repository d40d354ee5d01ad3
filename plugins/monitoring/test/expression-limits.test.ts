import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExpressionError, ExpressionGuard } from '../src/expression-guard.js';

/** Issue 12: a monitor's expression runs in the server process, so nothing in it may take unbounded memory or just wait. */
test('list generators and sleeping functions are refused in monitor expressions and filters', async () => {
  const guard = new ExpressionGuard();
  try {
    for (const expr of ['sum(len(range(1000000000)))', 'count(*) + len(generate_series(1, 70000000))', 'max(sleep_ms(25000))']) {
      await assert.rejects(guard.valueExpression(expr), (e: Error) => e instanceof ExpressionError && /must not call/.test(e.message), expr);
    }
    await assert.rejects(guard.filter('len(range(100000000)) > 0'), ExpressionError);
    assert.equal(await guard.valueExpression('sum(amount)'), 'sum(amount)');
  } finally {
    guard.close();
  }
});
