// marimo notebook files for the three SPEC templates. Notebooks open the serving copy read-only
// (BASIN_SERVING_DB, set by Basin when it starts the notebook's server), so a notebook never blocks a
// sync or a dbt run and always sees the last published data.

export const TEMPLATES = ['blank', 'explore', 'quality'] as const;
export type TemplateName = (typeof TEMPLATES)[number];

const header = `import marimo

__generated_with = "0.25.2"
app = marimo.App(width="medium")
`;
const footer = `

if __name__ == "__main__":
    app.run()
`;

const connectCell = `

@app.cell
def _():
    import os

    import duckdb
    import marimo as mo

    # the serving copy: a read-only snapshot of the warehouse, republished after each sync and dbt run
    # (re-run this cell to see newer data)
    con = duckdb.connect(os.environ["BASIN_SERVING_DB"], read_only=True)

    def quote(name):
        return ".".join('"' + part.replace('"', '""') + '"' for part in name.split(".", 1))

    def rows(sql):
        rel = con.sql(sql)
        return [dict(zip(rel.columns, r)) for r in rel.fetchall()]

    return con, mo, quote, rows
`;

const tablesCell = `

@app.cell
def _(con, mo):
    tables = [
        t[0]
        for t in con.sql(
            # Basin's own bookkeeping (_basin_*) is not the team's data
            "select schema_name || '.' || table_name from duckdb_tables() "
            "where not internal and not starts_with(schema_name, '_basin') "
            "union all select schema_name || '.' || view_name from duckdb_views() "
            "where not internal and not starts_with(schema_name, '_basin') "
            "order by 1"
        ).fetchall()
    ]
    picker = mo.ui.dropdown(options=tables, value=tables[0] if tables else None, label="Table")
    mo.vstack([mo.md(f"**{len(tables)} tables and views** in the serving copy"), picker])
    return picker, tables
`;

const bodies: Record<TemplateName, string> = {
  blank: `

@app.cell
def _():
    import marimo as mo

    return (mo,)
`,
  explore:
    connectCell +
    tablesCell +
    `

@app.cell
def _(con, picker, quote):
    row_count = con.sql(f"select count(*) from {quote(picker.value)}").fetchone()[0] if picker.value else 0
    row_count
    return (row_count,)


@app.cell
def _(mo, picker, quote, rows):
    mo.ui.table(rows(f"select * from {quote(picker.value)} limit 200") if picker.value else [])
    return


@app.cell
def _(mo):
    query = mo.ui.code_editor(value="select 42 as answer", language="sql", label="SQL (read-only)")
    query
    return (query,)


@app.cell
def _(mo, query, rows):
    mo.ui.table(rows(query.value)) if query.value.strip() else None
    return
`,
  quality:
    connectCell +
    tablesCell +
    `

@app.cell
def _(mo, picker, quote, rows):
    # per column: type, min, max, distinct values (approximate), share of NULLs
    profile = rows(f"summarize {quote(picker.value)}") if picker.value else []
    suspicious = [p["column_name"] for p in profile if float(p.get("null_percentage") or 0) > 50]
    mo.vstack([
        mo.md(f"Columns more than half empty: **{', '.join(suspicious) or 'none'}**"),
        mo.ui.table(profile),
    ])
    return


@app.cell
def _(con, mo, picker, quote):
    # rows that appear more than once (all columns equal)
    dupes = con.sql(
        f"select count(*) from (select * from {quote(picker.value)} group by all having count(*) > 1)"
    ).fetchone()[0] if picker.value else 0
    mo.md(f"Duplicated rows: **{dupes}**")
    return
`,
};

export function renderTemplate(name: TemplateName): string {
  return header + bodies[name] + footer;
}
