import { toPortableType } from '@basin/core';

/** an engine type (any backend's spelling) as PostgreSQL spells it */
export function postgresType(engineType: string): string {
  const p = toPortableType(engineType);
  switch (p) {
    case 'hugeint':
      return 'numeric(39,0)';
    case 'double':
      return 'double precision';
    case 'json':
      return 'jsonb';
    case 'blob':
      return 'bytea';
    default:
      return p.startsWith('decimal(') ? p.replace('decimal', 'numeric') : p;
  }
}

export const pgIdent = (name: string): string => `"${name.replace(/"/g, '""')}"`;
export const pgLiteral = (value: string): string => `'${value.replace(/'/g, "''")}'`;

/** a value as JSON-safe data: timestamps as ISO strings, bytes as \x hex (int8 and numeric arrive as strings) */
export function jsonSafe(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? null : v.toISOString();
  if (Buffer.isBuffer(v)) return `\\x${v.toString('hex')}`;
  if (Array.isArray(v)) return v.map(jsonSafe);
  return v;
}
