// marimo notebook files for the three SPEC templates. They read the warehouse through Basin's
// basin_warehouse module (python/basin_warehouse.py, on the notebook server's PYTHONPATH): DuckDB's
// serving copy read-only (a notebook never blocks a sync or a dbt run), or a server warehouse's
// read-only user (issue 22).

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
    import basin_warehouse
    import marimo as mo

    # the project's warehouse, read-only: DuckDB's serving copy (republished after each sync and dbt
    # run) or a PostgreSQL / Trino warehouse as its read-only user. Re-run this cell to reconnect.
    wh = basin_warehouse.connect()
    quote = wh.quote
    rows = wh.rows
    return mo, quote, rows, wh
`;

const tablesCell = `

@app.cell
def _(mo, wh):
    # Basin's own bookkeeping (_basin_*) is not the team's data
    tables = wh.tables()
    picker = mo.ui.dropdown(options=tables, value=tables[0] if tables else None, label="Table")
    mo.vstack([mo.md(f"**{len(tables)} tables and views** in the warehouse ({wh.kind})"), picker])
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
def _(picker, quote, wh):
    row_count = wh.scalar(f"select count(*) as n from {quote(picker.value)}") if picker.value else 0
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
def _(mo, picker, wh):
    # per column: type, distinct values, share of NULLs (DuckDB adds min, max and quartiles)
    profile = wh.profile(picker.value) if picker.value else []
    suspicious = [p["column_name"] for p in profile if float(p.get("null_percentage") or 0) > 50]
    mo.vstack([
        mo.md(f"Columns more than half empty: **{', '.join(suspicious) or 'none'}**"),
        mo.ui.table(profile),
    ])
    return


@app.cell
def _(mo, picker, wh):
    # rows that appear more than once (all columns equal)
    dupes = wh.duplicates(picker.value) if picker.value else 0
    mo.md(f"Duplicated rows: **{dupes}**")
    return
`,
};

export function renderTemplate(name: TemplateName): string {
  return header + bodies[name] + footer;
}
