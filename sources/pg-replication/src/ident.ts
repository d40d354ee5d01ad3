/** Quotes a PostgreSQL identifier: wraps it in double quotes and doubles any inside. */
export function quoteIdent(name: string): string {
  if (name.includes('\0')) throw new Error('an identifier cannot contain a NUL byte');
  return `"${name.replace(/"/g, '""')}"`;
}

/** A warehouse-safe resource name for a table: lowercase letters, digits and underscores. */
export function resourceName(table: string): string {
  const s = table.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
  return /^[a-z_]/.test(s) ? s : `t_${s}`;
}
