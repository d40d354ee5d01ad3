import { Kind, type Static, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { ConfigProblem } from './types.js';

/**
 * A config block with the schema's defaults applied, and the problems found (JSON pointer +
 * message). The input is not modified. Schemas not built with typebox are passed through.
 */
export function resolveConfig<S extends TSchema>(schema: S, input: unknown): { value: Static<S>; problems: ConfigProblem[] } {
  if (!schema || !(Kind in schema)) return { value: (input ?? {}) as Static<S>, problems: [] };
  const value = Value.Default(schema, Value.Clone(input ?? {}));
  if (Value.Check(schema, value)) return { value: value as Static<S>, problems: [] };
  const problems = [...Value.Errors(schema, value)].map((e) => ({ path: e.path || '/', message: e.message }));
  return { value: value as Static<S>, problems };
}
