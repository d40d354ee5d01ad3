/**
 * The project's `.env` as lines, so that setting or removing one variable keeps every other line
 * (comments, blank lines, order, `export` prefixes) as the person wrote it. Values are written in the
 * form dotenv reads back unchanged (test/env-file.test.ts checks the round trip).
 */
type Line = { kind: 'text'; text: string } | { kind: 'var'; key: string; text: string };

const VAR = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

export class EnvDocument {
  private constructor(private lines: Line[]) {}

  static parse(text: string): EnvDocument {
    const raw = text.replace(/\r\n?/g, '\n').split('\n');
    if (raw.length && raw[raw.length - 1] === '') raw.pop();
    const lines: Line[] = [];
    for (let i = 0; i < raw.length; i++) {
      const m = VAR.exec(raw[i]!);
      if (!m) {
        lines.push({ kind: 'text', text: raw[i]! });
        continue;
      }
      let text = raw[i]!;
      // a quoted value may span lines until its closing quote (dotenv reads multi-line quoted values)
      const q = m[2]!.charAt(0);
      if ((q === '"' || q === "'" || q === '`') && !closes(m[2]!.slice(1), q)) {
        while (i + 1 < raw.length) {
          text += `\n${raw[++i]}`;
          if (closes(raw[i]!, q)) break;
        }
      }
      lines.push({ kind: 'var', key: m[1]!, text });
    }
    return new EnvDocument(lines);
  }

  keys(): string[] {
    return [...new Set(this.lines.flatMap((l) => (l.kind === 'var' ? [l.key] : [])))];
  }

  has(key: string): boolean {
    return this.lines.some((l) => l.kind === 'var' && l.key === key);
  }

  /** sets a variable in place (its first line; later duplicates go), or appends it */
  set(key: string, value: string): void {
    const text = `${key}=${quoteEnvValue(value)}`;
    const first = this.lines.findIndex((l) => l.kind === 'var' && l.key === key);
    if (first < 0) {
      this.lines.push({ kind: 'var', key, text });
      return;
    }
    this.lines = this.lines.filter((l, i) => i <= first || !(l.kind === 'var' && l.key === key));
    this.lines[first] = { kind: 'var', key, text };
  }

  /** removes every line of a variable; false when it was not there */
  unset(key: string): boolean {
    const before = this.lines.length;
    this.lines = this.lines.filter((l) => !(l.kind === 'var' && l.key === key));
    return this.lines.length !== before;
  }

  toString(): string {
    return this.lines.length ? `${this.lines.map((l) => l.text).join('\n')}\n` : '';
  }
}

/** whether a quoted value ends on this text: a closing quote followed only by blanks or a comment (as dotenv's pattern needs) */
function closes(rest: string, q: string): boolean {
  for (let i = rest.indexOf(q); i >= 0; i = rest.indexOf(q, i + 1)) if (/^\s*(#.*)?$/.test(rest.slice(i + 1))) return true;
  return false;
}

export class UnwritableValueError extends Error {}

/**
 * The text of a value as dotenv 16 reads it back unchanged: bare when it is plain, else single quotes
 * (literal, may span lines), backticks (literal, may span lines), or double quotes (where dotenv turns \n and \r back
 * into line breaks). A value none of these can carry is refused.
 */
export function quoteEnvValue(v: string): string {
  if (/^[A-Za-z0-9_\-.:/@+=,%~^]*$/.test(v)) return v;
  if (!/['\r]/.test(v)) return `'${v}'`;
  if (!/[`\r]/.test(v)) return `\`${v}\``;
  if (!/["]|\\[nr]/.test(v)) return `"${v.replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
  throw new UnwritableValueError('The value mixes single quotes, backticks, double quotes and line breaks in a way a .env file cannot hold; store it base64-encoded.');
}
