import './formats.js';
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { closest } from './suggest.js';

export interface SchemaProblem {
  path: string;
  message: string;
  expected?: string;
  suggestion?: string;
}

/** Applies defaults (in place, on a clone) and returns the value with every problem, not just the first. */
export function checkAgainstSchema(schema: TSchema, raw: unknown): { value: unknown; problems: SchemaProblem[] } {
  const value = Value.Default(schema, Value.Clone(raw ?? {}));
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const err of Value.Errors(schema, value)) {
    // Union errors repeat per branch; keep the first per path
    const unknownKey = err.schema && (err.schema as any).additionalProperties === false && /additional|Unexpected property/i.test(err.message);
    if (unknownKey) {
      const allowed = Object.keys((err.schema as any).properties ?? {});
      // TypeBox 0.34 reports each extra property at its own path with the property's value; older
      // versions report the object itself. Take the key from the path when it is not an allowed one.
      const last = err.path.slice(err.path.lastIndexOf('/') + 1).replace(/~1/g, '/').replace(/~0/g, '~');
      const perKey = err.path !== '' && !allowed.includes(last);
      const keys = perKey ? [last] : Object.keys((err.value as Record<string, unknown>) ?? {});
      const base = perKey ? err.path.slice(0, err.path.lastIndexOf('/')) : err.path;
      for (const key of keys) {
        if (allowed.includes(key)) continue;
        const p = `${base}/${key}`;
        if (seen.has(p)) continue;
        seen.add(p);
        const s = closest(key, allowed);
        problems.push({ path: p, message: s ? `unknown key "${key}"; did you mean ${s}?` : `unknown key "${key}"`, expected: allowed.length ? `one of: ${allowed.join(', ')}` : undefined, suggestion: s });
      }
      continue;
    }
    if (seen.has(err.path)) continue;
    seen.add(err.path);
    problems.push({ path: err.path || '/', message: err.message, expected: describe(err.schema) });
  }
  return { value, problems };
}

function describe(s: TSchema): string | undefined {
  if (!s) return undefined;
  if ((s as any).enum) return `one of ${(s as any).enum.join(', ')}`;
  if (s[Kind] === 'Union' && Array.isArray((s as any).anyOf)) {
    const lits = (s as any).anyOf.map((x: any) => x.const).filter((x: unknown) => x !== undefined);
    if (lits.length) return `one of ${lits.join(', ')}`;
  }
  if ((s as any).const !== undefined) return `${JSON.stringify((s as any).const)}`;
  if ((s as any).pattern) return `a string matching ${(s as any).pattern}`;
  return (s as any).type ? String((s as any).type) : undefined;
}
