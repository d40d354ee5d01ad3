"""Basin's warehouse, read-only, for notebooks: the same calls whichever backend the project has.

Basin sets the environment when it starts a notebook's server:
- DuckDB: BASIN_SERVING_DB, the serving copy (a read-only snapshot republished after each sync and dbt
  run), opened read-only so a notebook never blocks a load.
- PostgreSQL or Trino: BASIN_WAREHOUSE_SQLALCHEMY_URL (the read-only user, no password),
  BASIN_WAREHOUSE_CONNECT_ARGS (JSON), BASIN_WAREHOUSE_READ_PASSWORD and BASIN_WAREHOUSE_SCHEMA_PREFIX.
  The password stays in the process environment: nothing here prints or stores it.

    import basin_warehouse
    wh = basin_warehouse.connect()
    wh.rows("select * from main.fct_orders limit 10")
"""
import json
import os

__all__ = ["connect", "Warehouse"]


def quote(name):
    """schema.table (or a bare name) with each part quoted; SQL of all three engines."""
    return ".".join('"' + part.replace('"', '""') + '"' for part in name.split(".", 1))


class Warehouse:
    """One read-only connection. `kind` is "duckdb", "postgres" or "trino"."""

    kind = "duckdb"
    # what Basin's schema names get on the engine (a server warehouse's schema_prefix)
    schema_prefix = ""

    def rows(self, sql):
        """The result as a list of dicts (column name -> value)."""
        raise NotImplementedError

    def scalar(self, sql):
        """The first column of the first row (None when there is no row)."""
        r = self.rows(sql)
        return next(iter(r[0].values())) if r else None

    quote = staticmethod(quote)

    def tables(self):
        """schema.table of every table and view of the team's data (Basin's _basin* bookkeeping left out:
        its schemas, and the file names beside raw tables, `_basin_files`)."""
        raise NotImplementedError

    def columns(self, table):
        """[(name, type)] of a schema.table, in order."""
        raise NotImplementedError

    def profile(self, table):
        """Per column: column_name, column_type, null_percentage (0-100) and approx_unique."""
        cols = self.columns(table)
        if not cols:
            return []
        parts = ["count(*) as n"]
        for i, (name, _) in enumerate(cols):
            q = quote(name)
            parts.append(f"count({q}) as c{i}")
            parts.append(f"count(distinct {q}) as d{i}")
        r = self.rows(f"select {', '.join(parts)} from {quote(table)}")[0]
        n = int(r["n"] or 0)
        return [
            {
                "column_name": name,
                "column_type": typ,
                "null_percentage": round(100.0 * (n - int(r[f"c{i}"])) / n, 2) if n else 0.0,
                "approx_unique": int(r[f"d{i}"]),
            }
            for i, (name, typ) in enumerate(cols)
        ]

    def duplicates(self, table):
        """How many distinct rows appear more than once (all columns equal)."""
        cols = ", ".join(quote(c) for c, _ in self.columns(table))
        if not cols:
            return 0
        return int(self.scalar(f"select count(*) as n from (select 1 as one from {quote(table)} group by {cols} having count(*) > 1) d") or 0)

    def close(self):
        pass

    def _ours(self, schema):
        """a schema of the team's data on this engine: under the prefix, not Basin's bookkeeping"""
        if not schema.startswith(self.schema_prefix):
            return False
        return not schema[len(self.schema_prefix):].startswith("_basin")


class _DuckDB(Warehouse):
    kind = "duckdb"

    def __init__(self, path):
        import duckdb

        self.con = duckdb.connect(path, read_only=True)

    def rows(self, sql):
        rel = self.con.sql(sql)
        return [dict(zip(rel.columns, r)) for r in rel.fetchall()] if rel is not None else []

    def tables(self):
        return [
            t[0]
            for t in self.con.sql(
                "select schema_name || '.' || table_name from duckdb_tables() "
                "where not internal and not starts_with(schema_name, '_basin') and not starts_with(table_name, '_basin') "
                "union all select schema_name || '.' || view_name from duckdb_views() "
                "where not internal and not starts_with(schema_name, '_basin') and not starts_with(view_name, '_basin') "
                "order by 1"
            ).fetchall()
        ]

    def columns(self, table):
        return [(r[0], r[1]) for r in self.con.sql(f"describe {quote(table)}").fetchall()]

    def profile(self, table):
        # DuckDB's own summary: also min, max, quartiles
        return self.rows(f"summarize {quote(table)}")

    def close(self):
        self.con.close()


class _Server(Warehouse):
    """PostgreSQL or Trino through SQLAlchemy and the driver Basin installed in the notebook venv."""

    def __init__(self, url, connect_args, password, prefix):
        from sqlalchemy import create_engine
        from sqlalchemy.engine import make_url
        from sqlalchemy.pool import NullPool

        u = make_url(url)
        if password:
            u = u.set(password=password)
        self.kind = "trino" if u.get_backend_name() == "trino" else "postgres"
        self.schema_prefix = prefix
        args = dict(connect_args)
        if self.kind == "postgres":
            # the role is read-only already; the session says so too
            args.setdefault("options", "-c default_transaction_read_only=on")
        self.engine = create_engine(u, connect_args=args, poolclass=NullPool)
        conn = self.engine.connect()
        if self.kind == "postgres":
            # no transaction left open between cells: it would hold locks a sync's table swap waits for
            conn = conn.execution_options(isolation_level="AUTOCOMMIT")
        self.conn = conn

    def rows(self, sql, params=None):
        from sqlalchemy import text

        result = self.conn.execute(text(sql), params or {}) if params is not None else self.conn.exec_driver_sql(sql)
        if not result.returns_rows:
            return []
        keys = list(result.keys())
        return [dict(zip(keys, r)) for r in result.fetchall()]

    def tables(self):
        found = self.rows("select table_schema, table_name from information_schema.tables order by 1, 2")
        return [
            f"{r['table_schema']}.{r['table_name']}"
            for r in found
            if r["table_schema"] not in ("information_schema", "pg_catalog") and self._ours(r["table_schema"]) and not r["table_name"].startswith("_basin")
        ]

    def columns(self, table):
        schema, _, name = table.partition(".")
        found = self.rows(
            "select column_name, data_type from information_schema.columns "
            "where table_schema = :s and table_name = :t order by ordinal_position",
            {"s": schema, "t": name},
        )
        return [(r["column_name"], r["data_type"]) for r in found]

    def close(self):
        self.conn.close()
        self.engine.dispose()


def connect(env=None):
    """The project's warehouse, read-only, as Basin described it in the environment."""
    env = os.environ if env is None else env
    url = env.get("BASIN_WAREHOUSE_SQLALCHEMY_URL")
    if url:
        return _Server(url, json.loads(env.get("BASIN_WAREHOUSE_CONNECT_ARGS") or "{}"), env.get("BASIN_WAREHOUSE_READ_PASSWORD"), env.get("BASIN_WAREHOUSE_SCHEMA_PREFIX") or "")
    path = env.get("BASIN_SERVING_DB")
    if not path:
        raise RuntimeError("Basin did not say where the warehouse is: open this notebook from Basin (Notebooks page), which sets BASIN_SERVING_DB or BASIN_WAREHOUSE_*.")
    return _DuckDB(path)
