/**
 * Names the kind of a SQL statement (INSERT, DROP, ATTACH, ...) for error messages. This is NOT the
 * safety check (DuckDB's parser decides what is a SELECT, see sql-guard.ts); it only reads the first
 * statement keyword at parenthesis depth 0, skipping comments, string literals, quoted identifiers
 * and a leading WITH clause, so `/* x *\/ WITH a AS (SELECT 1) DELETE FROM t` is named DELETE.
 */
const STATEMENT_KEYWORDS = new Set([
  'SELECT', 'FROM', 'VALUES', 'TABLE', 'INSERT', 'UPDATE', 'DELETE', 'MERGE', 'DROP', 'CREATE', 'ALTER', 'ATTACH', 'DETACH',
  'COPY', 'SET', 'RESET', 'PRAGMA', 'INSTALL', 'FORCE', 'LOAD', 'EXPORT', 'IMPORT', 'CALL', 'EXECUTE', 'PREPARE', 'DEALLOCATE',
  'EXPLAIN', 'DESCRIBE', 'SHOW', 'SUMMARIZE', 'PIVOT', 'UNPIVOT', 'USE', 'BEGIN', 'START', 'COMMIT', 'END', 'ROLLBACK', 'ABORT',
  'CHECKPOINT', 'VACUUM', 'ANALYZE', 'TRUNCATE', 'COMMENT', 'UPDATE_EXTENSIONS',
]);

/** Yields the bare words of `sql` at parenthesis depth 0, in order. */
function* topLevelWords(sql: string): Generator<string> {
  let i = 0;
  let depth = 0;
  const n = sql.length;
  while (i < n) {
    const ch = sql[i]!;
    const next = sql[i + 1];
    if (ch === '-' && next === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (ch === '/' && next === '*') {
      // block comments nest in DuckDB's (PostgreSQL-derived) lexer
      let level = 1;
      i += 2;
      while (i < n && level > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') (level++, (i += 2));
        else if (sql[i] === '*' && sql[i + 1] === '/') (level--, (i += 2));
        else i++;
      }
    } else if (ch === "'" || ch === '"') {
      i++;
      while (i < n) {
        if (sql[i] === ch && sql[i + 1] === ch) i += 2;
        else if (sql[i] === ch) break;
        else i++;
      }
      i++;
    } else if (ch === '$') {
      const m = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(i, i + 64));
      if (m) {
        const end = sql.indexOf(m[0], i + m[0].length);
        i = end < 0 ? n : end + m[0].length;
      } else i++;
    } else if (ch === '(') (depth++, i++);
    else if (ch === ')') (depth--, i++);
    else if (/[A-Za-z_]/.test(ch)) {
      let j = i + 1;
      while (j < n && /[A-Za-z0-9_]/.test(sql[j]!)) j++;
      if (depth <= 0) yield sql.slice(i, j).toUpperCase();
      i = j;
    } else i++;
  }
}

export function statementKind(sql: string): string {
  let inWith = false;
  for (const w of topLevelWords(sql)) {
    if (w === 'WITH') {
      inWith = true;
      continue;
    }
    if (inWith) {
      // skip CTE names and AS/RECURSIVE/MATERIALIZED until the main statement keyword
      if (STATEMENT_KEYWORDS.has(w) && w !== 'SET' && w !== 'TABLE') return w === 'FROM' || w === 'VALUES' ? 'SELECT' : w;
      continue;
    }
    if (w === 'FORCE') continue; // FORCE INSTALL
    if (w === 'FROM' || w === 'VALUES' || w === 'TABLE') return 'SELECT';
    return w;
  }
  return inWith ? 'WITH' : 'UNKNOWN';
}
