import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inferColumns } from '../src/index.js';

test('inferColumns: DuckDB types from sample records, widened across rows, nullability', () => {
  const cols = inferColumns([
    { id: 1, price: 2, day: '2024-01-01', at: '2024-01-01T10:00:00Z', local: '2024-01-01 10:00:00', ok: true, tags: ['a'], note: null, code: '007' },
    { id: 2, price: 2.5, day: '2024-01-02T00:00:00', at: '2024-01-02T10:00:00+02:00', local: '2024-01-02 11:00:00', ok: false, tags: [], note: null, code: 7, extra: 'x' },
  ]);
  assert.deepEqual(cols, [
    { name: 'id', type: 'BIGINT', nullable: false },
    { name: 'price', type: 'DOUBLE', nullable: false },
    { name: 'day', type: 'TIMESTAMP', nullable: false },
    { name: 'at', type: 'TIMESTAMPTZ', nullable: false },
    { name: 'local', type: 'TIMESTAMP', nullable: false },
    { name: 'ok', type: 'BOOLEAN', nullable: false },
    { name: 'tags', type: 'JSON', nullable: false },
    { name: 'note', type: 'VARCHAR', nullable: true },
    { name: 'code', type: 'VARCHAR', nullable: false },
    { name: 'extra', type: 'VARCHAR', nullable: true },
  ]);
});
