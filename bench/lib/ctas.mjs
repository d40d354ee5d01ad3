// The baseline of bench/sync-load: DuckDB's own CREATE TABLE AS SELECT * FROM read_csv over the same
// files, in a fresh Node process through @duckdb/node-api, as a user would run it from the shell.
//   node bench/lib/ctas.mjs <glob> <database file>
import { DuckDBInstance } from '@duckdb/node-api';

const [glob, db] = process.argv.slice(2);
const inst = await DuckDBInstance.create(db);
const c = await inst.connect();
await c.run(`CREATE TABLE t AS SELECT * FROM read_csv('${glob.replace(/'/g, "''")}')`);
const n = (await c.runAndReadAll('SELECT count(*) FROM t')).getRows()[0][0];
c.closeSync();
inst.closeSync();
process.stdout.write(`${n}\n`);
