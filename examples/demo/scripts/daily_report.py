"""Example script job (schedule type `script`): prints yesterday's revenue from the serving copy."""
import os
import sys

try:
    import duckdb
except ImportError:
    print("duckdb is not installed in this Python; run 'basin tx setup'", file=sys.stderr)
    sys.exit(1)

path = os.path.join(os.path.dirname(__file__), "..", "data", "serving.db")
con = duckdb.connect(path, read_only=True)
print(con.execute("select max(order_date), sum(revenue) from mart_daily_revenue").fetchall())
