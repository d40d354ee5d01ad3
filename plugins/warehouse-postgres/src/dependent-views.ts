// A replace swap drops the raw table and renames the staged one into its place. PostgreSQL binds a
// view to the table's object id and refuses that DROP while views read the table (dbt's staging
// views do), so the swap saves the views built on the table, drops them with it, and creates them
// again on the new table in the same transaction.
import type pg from 'pg';
import { pgIdent } from './types.js';

export interface DependentView {
  schema: string;
  name: string;
  materialized: boolean;
  /** SELECT text from pg_get_viewdef, schema-qualified where the view's search path needed it */
  definition: string;
  depth: number;
}

/** the views and materialized views that read `schema.table`, directly or through other views, outermost last */
export async function dependentViews(c: pg.PoolClient, schema: string, table: string): Promise<DependentView[]> {
  const { rows } = await c.query(
    `WITH RECURSIVE dep(oid, depth) AS (
       SELECT r.ev_class, 1 FROM pg_depend d JOIN pg_rewrite r ON r.oid = d.objid
        WHERE d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
          AND d.refobjid = to_regclass($1) AND r.ev_class <> d.refobjid
       UNION
       SELECT r.ev_class, dep.depth + 1 FROM dep JOIN pg_depend d ON d.refobjid = dep.oid
          AND d.classid = 'pg_rewrite'::regclass AND d.refclassid = 'pg_class'::regclass
         JOIN pg_rewrite r ON r.oid = d.objid
        WHERE r.ev_class <> dep.oid AND dep.depth < 50
     )
     SELECT n.nspname AS schema, c.relname AS name, c.relkind = 'm' AS materialized, max(dep.depth) AS depth,
            pg_get_viewdef(c.oid, true) AS definition
       FROM dep JOIN pg_class c ON c.oid = dep.oid JOIN pg_namespace n ON n.oid = c.relnamespace
      GROUP BY n.nspname, c.relname, c.relkind, c.oid
      ORDER BY max(dep.depth), n.nspname, c.relname`,
    [`${pgIdent(schema)}.${pgIdent(table)}`],
  );
  return rows.map((r) => ({ schema: r.schema, name: r.name, materialized: r.materialized, definition: r.definition, depth: Number(r.depth) }));
}

/**
 * Creates the saved views again, inner ones first. A view whose columns are gone from the new table
 * cannot be made again: it is left out (a savepoint keeps the swap's transaction usable), and its
 * name is returned so the caller can say that dbt's next run rebuilds it.
 */
export async function recreateViews(c: pg.PoolClient, views: DependentView[]): Promise<string[]> {
  const lost: string[] = [];
  for (const v of views) {
    const name = `${pgIdent(v.schema)}.${pgIdent(v.name)}`;
    await c.query('SAVEPOINT basin_view');
    try {
      await c.query(`CREATE ${v.materialized ? 'MATERIALIZED VIEW' : 'VIEW'} ${name} AS ${v.definition.replace(/;\s*$/, '')}`);
      await c.query('RELEASE SAVEPOINT basin_view');
    } catch {
      await c.query('ROLLBACK TO SAVEPOINT basin_view');
      lost.push(`${v.schema}.${v.name}`);
    }
  }
  return lost;
}
