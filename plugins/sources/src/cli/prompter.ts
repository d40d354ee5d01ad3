import readline from 'node:readline';
import { CliExit, EXIT } from '@basin/core';

/**
 * Reads the wizard's answers. On a terminal it edits one line at a time in raw mode (so a secret can
 * be typed without echo); from a pipe it reads lines as they come (answers arriving before their
 * prompt are kept). Input ending before the wizard is done exits without writing anything.
 */
export class Prompter {
  private readonly tty: boolean;
  private readonly lines: string[] = [];
  private readonly waiters: Array<(l: string | null) => void> = [];
  private ended = false;
  private rl: readline.Interface | null = null;
  private buffer = '';
  private hidden = false;
  private readonly onData = (chunk: Buffer | string) => this.rawInput(String(chunk));

  constructor(
    private readonly input: NodeJS.ReadStream,
    private readonly output: NodeJS.WritableStream,
  ) {
    this.tty = !!input.isTTY && typeof input.setRawMode === 'function';
    if (this.tty) {
      input.setRawMode(true);
      input.setEncoding('utf8');
      input.on('data', this.onData);
      input.resume();
    } else {
      this.rl = readline.createInterface({ input, terminal: false });
      this.rl.on('line', (l) => this.push(l));
      this.rl.on('close', () => this.end());
    }
  }

  private push(line: string): void {
    if (this.waiters.length) this.waiters.shift()!(line);
    else this.lines.push(line);
  }

  private end(): void {
    this.ended = true;
    while (this.waiters.length) this.waiters.shift()!(null);
  }

  /** a small line editor: printable characters, backspace, Enter, Ctrl-C and Ctrl-D */
  private rawInput(text: string): void {
    for (const ch of text) {
      if (ch === '\r' || ch === '\n') {
        const line = this.buffer;
        this.buffer = '';
        this.output.write('\n');
        this.push(line);
      } else if (ch === '\u0003') {
        this.close();
        this.output.write('\n');
        process.exitCode = 130;
        this.end();
      } else if (ch === '\u0004') {
        if (!this.buffer) this.end();
      } else if (ch === '\u007f' || ch === '\b') {
        if (this.buffer) {
          this.buffer = [...this.buffer].slice(0, -1).join('');
          if (!this.hidden) this.output.write('\b \b');
        }
      } else if (ch >= ' ' && ch !== '\u001b') {
        this.buffer += ch;
        if (!this.hidden) this.output.write(ch);
      }
    }
  }

  /** asks and waits for one line; `hidden` types it without echo (secrets) */
  async ask(prompt: string, opts: { hidden?: boolean } = {}): Promise<string> {
    this.output.write(prompt);
    this.hidden = !!opts.hidden;
    const line = this.lines.length ? this.lines.shift()! : this.ended ? null : await new Promise<string | null>((r) => this.waiters.push(r));
    this.hidden = false;
    if (line === null) throw new CliExit(EXIT.config, '\nbasin source add: input ended before the wizard finished; nothing was written.');
    return line;
  }

  /** a yes/no question; empty takes the default */
  async confirm(prompt: string, def: boolean): Promise<boolean> {
    for (;;) {
      const a = (await this.ask(`${prompt} [${def ? 'Y/n' : 'y/N'}] `)).trim().toLowerCase();
      if (!a) return def;
      if (/^(y|yes)$/.test(a)) return true;
      if (/^(n|no)$/.test(a)) return false;
      this.output.write('Answer y or n.\n');
    }
  }

  close(): void {
    if (this.tty) {
      this.input.off('data', this.onData);
      try {
        this.input.setRawMode(false);
      } catch {
        /* the terminal is gone */
      }
      this.input.pause();
    }
    this.rl?.close();
    this.rl = null;
  }
}
