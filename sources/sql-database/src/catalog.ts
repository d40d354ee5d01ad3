import { SourceError, type ResourceSpec } from '@basin/sdk';
import { cursorOf, type CursorSpec, type SqlDatabaseConfig } from './config.js';
import { resourceName } from './ident.js';
import { duckdbType, isCursorType, type PgColumn } from './type-map.js';

export interface DbTable {
  /** the table's name in the source database (exact, case-sensitive) */
  name: string;
  /** the warehouse resource it loads into */
  resource: string;
  kind: 'table' | 'view';
  columns: PgColumn[];
  primaryKey: string[];
  cursor?: CursorSpec & { typname: string };
}

function notFound(name: string, where: string, all: Map<string, DbTable>): SourceError {
  const ci = [...all.keys()].find((k) => k.toLowerCase() === name.toLowerCase());
  const hint = ci ? ` Did you mean "${ci}"? (names are case-sensitive)` : ` Tables there: ${[...all.keys()].slice(0, 20).join(', ') || 'none'}.`;
  return new SourceError('not_found', `Table "${name}" was not found in ${where}.${hint}`, { table: name });
}

/**
 * The tables a sync reads: the config's `tables` (tables or views, by exact name) or every table of
 * the schema. Names only ever come from the catalog, so a name that is not a real table is refused
 * before any SQL is built with it.
 */
export function selectTables(cfg: SqlDatabaseConfig, all: Map<string, DbTable>, where: string = `schema "${cfg.schema}"`): DbTable[] {
  for (const name of Object.keys(cfg.incremental)) {
    if (!all.has(name)) throw notFound(name, where, all);
    if (cfg.tables.length && !cfg.tables.includes(name)) {
      throw new SourceError('config_invalid', `incremental names table "${name}", which is not in tables.`, { table: name });
    }
  }
  const pick = (n: string): DbTable => {
    const t = all.get(n);
    if (!t) throw notFound(n, where, all);
    return t;
  };
  const picked = cfg.tables.length ? cfg.tables.map(pick) : [...all.values()].filter((t) => t.kind === 'table');
  const byResource = new Map<string, string>();
  for (const t of picked) {
    const other = byResource.get(t.resource);
    if (other !== undefined) throw new SourceError('config_invalid', `Tables "${other}" and "${t.name}" would both load into ${t.resource}; list only one of them in tables.`);
    byResource.set(t.resource, t.name);
    const cur = cursorOf(cfg, t.name);
    if (cur) {
      const col = t.columns.find((c) => c.name === cur.column);
      if (!col) throw new SourceError('config_invalid', `Cursor column "${cur.column}" does not exist in table "${t.name}" (columns: ${t.columns.map((c) => c.name).join(', ')}).`, { table: t.name });
      if (!isCursorType(col.typname)) throw new SourceError('config_invalid', `Column "${cur.column}" of "${t.name}" has type ${col.formatted}, which cannot serve as an incremental cursor (use an integer, numeric, date, timestamp or text column).`, { table: t.name });
      t.cursor = { ...cur, typname: col.typname };
    }
  }
  return picked;
}

/** What the engine loads: typed columns, key, and replace for full tables / merge or append for incremental ones. */
export function toResource(t: DbTable, label: string, namespace: string): ResourceSpec {
  return {
    name: t.resource,
    columns: t.columns.map((c) => ({ name: c.name, type: duckdbType(c), nullable: !c.notNull })),
    ...(t.primaryKey.length ? { primaryKey: t.primaryKey } : {}),
    ...(t.cursor ? { cursorField: t.cursor.column } : {}),
    writeDisposition: t.cursor ? (t.primaryKey.length ? 'merge' : 'append') : 'replace',
    description: `${label} ${t.kind} ${namespace}.${t.name}`,
  };
}
