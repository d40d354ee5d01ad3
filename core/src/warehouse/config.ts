// The `warehouse` section of project.yml (issue 22): `type` picks the backend (duckdb when absent, so
// SPEC's `platform.db_path` stays the warehouse, DECISIONS §1); the other keys are the chosen backend's
// settings, declared in its package manifest and checked here.
import { Type } from '@sinclair/typebox';
import { Value, ValueErrorType } from '@sinclair/typebox/value';
import type { ConfigSectionSpec } from '../config/types.js';
import { DEFAULT_WAREHOUSE_TYPE, warehouseSettingsSchema, warehouseTypes } from './registry.js';

export const warehouseSectionSpec = (): ConfigSectionSpec => ({
  section: 'warehouse',
  schema: Type.Object({ type: Type.String({ default: DEFAULT_WAREHOUSE_TYPE }) }, { additionalProperties: true }),
  validate(value: Record<string, unknown>, ctx) {
    const type = String(value.type);
    const schema = warehouseSettingsSchema(type);
    if (!schema) {
      ctx.issue('/type', `unknown warehouse type "${type}"; installed: ${warehouseTypes().join(', ')}`, { expected: warehouseTypes().join(' | ') });
      return;
    }
    for (const err of Value.Errors(schema, Value.Default(schema, structuredClone(value)))) {
      const key = err.path.split('/')[1];
      const message = err.type === ValueErrorType.ObjectAdditionalProperties ? `"${key}" is not a setting of the ${type} warehouse` : err.message;
      ctx.issue(err.path || '/', message);
    }
  },
});
