import fs from 'node:fs';
import path from 'node:path';
import { resolveInside } from '@basin/core';

/** Where in the model file a database error is. */
export interface ModelErrorLocation {
  /** the model file, relative to the project (e.g. tx/models/marts/orders.sql) */
  file: string;
  /** 1-based line in that file */
  line: number;
  /** that line, trimmed */
  text: string;
}

const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

function readLines(file: string | null): string[] | null {
  if (!file) return null;
  try {
    return fs.readFileSync(file, 'utf8').split('\n');
  } catch {
    return null;
  }
}

/** `target/<kind>/<project>/<file>` for whichever dbt project folder holds it (the project name is not known here). */
function artifact(targetDir: string, kind: 'run' | 'compiled', file: string): string | null {
  const base = path.join(targetDir, kind);
  let projects: string[];
  try {
    projects = fs.readdirSync(base);
  } catch {
    return null;
  }
  for (const p of projects) {
    const f = resolveInside(path.join(base, p), file);
    if (f && fs.existsSync(f)) return f;
  }
  return null;
}

/** The line (0-based) of `lines` holding `snippet`, nearest to `near`; DuckDB cuts long lines with "...". */
function findSnippet(lines: string[], snippet: string, near: number): number | null {
  const s = norm(snippet.replace(/^\.\.\./, '').replace(/\.\.\.$/, ''));
  if (!s) return null;
  let best: number | null = null;
  lines.forEach((l, i) => {
    if (norm(l).includes(s) && (best === null || Math.abs(i - near) < Math.abs(best - near))) best = i;
  });
  return best;
}

/** Where the compiled model starts inside the executed statement (dbt wraps it in create table ... as (...)). */
function compiledOffset(run: string[], compiled: string[]): number {
  const first = compiled.findIndex((l) => norm(l) !== '');
  if (first < 0) return 0;
  for (let i = 0; i < run.length; i++) {
    if (norm(run[i]!) !== norm(compiled[first]!)) continue;
    let ok = true;
    for (let k = 1; k < Math.min(5, compiled.length - first) && ok; k++) ok = norm(run[i + k] ?? '') === norm(compiled[first + k]!);
    if (ok) return i - first;
  }
  return 0;
}

/**
 * Line map from compiled SQL to the model file by a longest-common-subsequence of their lines: Jinja
 * (`{{ ref(...) }}`, `{{ config(...) }}`, loops) changes a few lines, the rest are copied verbatim, so a
 * compiled line that is not in the LCS sits between two that are and keeps its distance to the previous one.
 */
export function mapCompiledToSource(compiled: string[], source: string[]): (line: number) => number {
  const a = compiled.map(norm);
  const b = source.map(norm);
  const n = a.length;
  const m = b.length;
  // a quadratic table: past a few million cells (files of thousands of lines) keep line numbers as they are
  if (n * m > 4_000_000) return (line) => Math.min(m - 1, line);
  const dp: Uint16Array[] = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i]![j] = a[i] === b[j] && a[i] !== '' ? dp[i + 1]![j + 1]! + 1 : Math.max(dp[i + 1]![j]!, dp[i]![j + 1]!);
  const pairs = new Map<number, number>();
  for (let i = 0, j = 0; i < n && j < m; ) {
    if (a[i] === b[j] && a[i] !== '') pairs.set(i++, j++);
    else if (dp[i + 1]![j]! >= dp[i]![j + 1]!) i++;
    else j++;
  }
  return (line) => {
    if (pairs.has(line)) return pairs.get(line)!;
    for (let i = line - 1; i >= 0; i--) if (pairs.has(i)) return Math.min(m - 1, pairs.get(i)! + (line - i));
    return Math.min(m - 1, line);
  };
}

/**
 * Maps a database error of a model (DuckDB's `LINE n: <text>` refers to the statement dbt executed,
 * which wraps the compiled SQL and starts with a query comment) back to the line of the model file.
 * Null when the message has no line or the files are gone.
 */
export function locateModelError(opts: { message: string; txDir: string; targetDir: string; displayDir: string; modelFile?: string | null }): ModelErrorLocation | null {
  const lineMatch = /LINE (\d+):(.*)$/m.exec(opts.message);
  const file = opts.modelFile ?? /\((models\/[^()\n]+\.sql)\)/.exec(opts.message)?.[1] ?? null;
  if (!lineMatch || !file || !file.endsWith('.sql')) return null;
  const reported = Number(lineMatch[1]) - 1;
  const source = readLines(resolveInside(opts.txDir, file));
  const compiled = readLines(artifact(opts.targetDir, 'compiled', file));
  if (!source || !compiled) return null;
  const run = readLines(artifact(opts.targetDir, 'run', file)) ?? compiled;

  const runLine = findSnippet(run, lineMatch[2]!, reported) ?? reported;
  const offset = run === compiled ? 0 : compiledOffset(run, compiled);
  let compiledLine = runLine - offset;
  // past the model's last line (e.g. the wrapper's closing parenthesis after a dangling `and`): the model's end
  const lastCode = compiled.reduce((last, l, i) => (norm(l) ? i : last), 0);
  if (compiledLine > lastCode || compiledLine < 0) compiledLine = lastCode;
  const line = mapCompiledToSource(compiled, source)(compiledLine);
  return { file: path.join(opts.displayDir, file), line: line + 1, text: (source[line] ?? '').trim() };
}

/** The error message with the model file and line in front: `tx/models/x.sql:9: Parser Error: ...`. */
export function withLocation(message: string, loc: ModelErrorLocation | null): string {
  if (!loc) return message;
  const first = message.split('\n').find((l) => /\b(Error|error)\b/.test(l) && !/^\s*(Runtime|Database|Compilation) Error in /.test(l))?.trim() ?? message.split('\n')[0]!.trim();
  return `${loc.file}:${loc.line}: ${first}\n  ${loc.line} | ${loc.text}\n${message}`;
}
