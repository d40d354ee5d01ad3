// @duckdb/node-api bundled into one CommonJS file (dist/vendor/duckdb.cjs; the package is ~180 modules,
// ~100 ms of loading in every process that opens the warehouse, ~30 ms as one file). Core and the
// plugins import it through core/vendor/duckdb.cjs (scripts/lib/tsup-vendor.mjs aliases it at build
// time), so a process has one copy: the value classes the query plugin tests with `instanceof` are the
// ones the warehouse's results are made of. The native addon (@duckdb/node-bindings) stays outside.
export * from '@duckdb/node-api';
