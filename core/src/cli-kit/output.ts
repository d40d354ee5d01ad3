// Terminal output for CLI commands: colour only on a TTY and never with NO_COLOR, tables that fit the
// terminal width, CSV and JSON for scripts, examples in --help.
import type { Command } from 'commander';

type Stream = NodeJS.WritableStream & { isTTY?: boolean; columns?: number };

/** colour is for people: a terminal, no NO_COLOR (https://no-color.org), not TERM=dumb */
export function colourEnabled(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): boolean {
  return !!(stream as Stream).isTTY && !('NO_COLOR' in env && env.NO_COLOR !== undefined) && env.TERM !== 'dumb';
}

export interface Painter {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  /** colours a status word: green for good, red for bad, yellow for the rest */
  status(s: string): string;
}

const GOOD = /^(ok|succeeded|success|completed|running|pass|passed|healthy|enabled|active|up)$/i;
const BAD = /^(failed|error|fail|cancelled|broken|down|missing|unhealthy|attention)$/i;

export function painter(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): Painter {
  const on = colourEnabled(stream, env);
  const wrap = (code: number, s: string) => (on ? `\x1b[${code}m${s}\x1b[0m` : s);
  const p: Painter = {
    bold: (s) => wrap(1, s),
    dim: (s) => wrap(2, s),
    red: (s) => wrap(31, s),
    green: (s) => wrap(32, s),
    yellow: (s) => wrap(33, s),
    status: (s) => (GOOD.test(s) ? p.green(s) : BAD.test(s) ? p.red(s) : p.yellow(s)),
  };
  return p;
}

/** the width tables must fit: the terminal's, else COLUMNS, else 100 */
export function terminalWidth(stream: NodeJS.WritableStream, env: NodeJS.ProcessEnv = process.env): number {
  const w = (stream as Stream).columns ?? Number(env.COLUMNS);
  return Number.isFinite(w) && w > 20 ? w : 100;
}

export const cellText = (v: unknown): string => {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v).replace(/\s*\n\s*/g, ' ');
};

export interface TableColumn {
  key: string;
  title?: string;
  /** colours a cell (after truncation, so widths stay right) */
  paint?: (s: string) => string;
}

/**
 * Renders rows as an aligned table no wider than `width`: the widest columns are shrunk first and
 * cut with an ellipsis, so every column stays visible.
 */
export function renderTable(rows: ReadonlyArray<object>, columns: Array<string | TableColumn>, width = 100): string {
  const cols: TableColumn[] = columns.map((c) => (typeof c === 'string' ? { key: c } : c));
  const head = cols.map((c) => c.title ?? c.key.toUpperCase());
  const cells = rows.map((r) => cols.map((c) => cellText((r as Record<string, unknown>)[c.key])));
  const widths = cols.map((_, i) => Math.max(head[i]!.length, ...cells.map((r) => r[i]!.length)));
  const gap = 2;
  const total = () => widths.reduce((a, b) => a + b, 0) + gap * (widths.length - 1);
  while (total() > width) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= 4) break;
    widths[widest]! -= 1;
  }
  const fit = (s: string, w: number) => (s.length > w ? `${s.slice(0, Math.max(0, w - 1))}…` : s.padEnd(w));
  const line = (vals: string[], paint: boolean) =>
    vals
      .map((v, i) => {
        const f = fit(v, widths[i]!);
        return paint && cols[i]!.paint ? cols[i]!.paint!(f) : f;
      })
      .join(' '.repeat(gap))
      .trimEnd();
  return [line(head, false), ...cells.map((r) => line(r, true))].join('\n');
}

/** RFC 4180 CSV: a header row, fields quoted when they hold a comma, quote or line break */
export function toCsv(columns: string[], rows: Array<Record<string, unknown> | unknown[]>): string {
  const q = (v: unknown) => {
    const s = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const body = rows.map((r) => (Array.isArray(r) ? r : columns.map((c) => r[c])).map(q).join(','));
  return [columns.map(q).join(','), ...body].join('\r\n') + '\r\n';
}

/** adds "Examples:" to a command's --help */
export function withExamples<C extends Command>(cmd: C, examples: string[]): C {
  cmd.addHelpText('after', `\nExamples:\n${examples.map((e) => `  $ ${e}`).join('\n')}\n`);
  return cmd;
}

/** the --project option every project command takes */
export function projectOption<C extends Command>(cmd: C): C {
  cmd.option('--project <dir>', 'project directory', process.cwd());
  return cmd;
}

/**
 * Prints what a read command got from the API: the JSON as the API returned it with --json, else a
 * table of its rows (`rows` picks them from the answer; default: the answer itself or its `items`).
 */
export function printResult(
  io: { stdout: NodeJS.WritableStream },
  data: unknown,
  o: { json?: boolean; columns: Array<string | TableColumn>; rows?: (d: any) => Array<Record<string, unknown>>; empty: string; footer?: (d: any) => string | null },
): void {
  if (o.json) {
    io.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
    return;
  }
  const rows = o.rows ? o.rows(data) : Array.isArray(data) ? data : ((data as { items?: Array<Record<string, unknown>> })?.items ?? []);
  const p = painter(io.stdout);
  const cols = o.columns.map((c) => (typeof c === 'string' && c === 'status' ? { key: 'status', paint: p.status } : c));
  io.stdout.write(rows.length ? `${renderTable(rows, cols, terminalWidth(io.stdout))}\n` : `${o.empty}\n`);
  const f = o.footer?.(data);
  if (f) io.stdout.write(`${f}\n`);
}

/** adds examples to commands already registered, by their path ("source add"): for a plugin's existing commands */
export function addExamples(program: Command, examples: Record<string, string[]>): void {
  for (const [p, lines] of Object.entries(examples)) {
    let cmd: Command | undefined = program;
    for (const name of p.split(' ')) cmd = cmd?.commands.find((c) => c.name() === name);
    if (cmd) withExamples(cmd, lines);
  }
}
