import fs from 'node:fs';
import { SourceError } from '@basin/sdk';
import { findCsvProblem } from './csv-diagnose.js';
import type { FileItem } from './types.js';

const name = (f: FileItem) => f.sourceFile ?? f.path;

/**
 * Turns DuckDB's error for a failed file load into one sentence naming the file and line when it can
 * (a malformed CSV record, a line DuckDB names, a file that vanished), saying the previous data was kept.
 */
export function describeFileError(e: Error, files: FileItem[], delim: string): Error {
  if (files[0]?.format === 'csv') {
    for (const f of files) {
      const p = findCsvProblem(f.path, delim || ',');
      if (p) return new SourceError('malformed_file', `Malformed CSV ${name(f)} at line ${p.line}: ${p.message}. The previous data was kept.`, { file: name(f), line: p.line });
    }
  }
  const msg = e.message.split('\n')[0]!;
  const m = /in file "([^"]*)", at byte \d+ in line (\d+)/.exec(msg) ?? /file "([^"]*)".*?[Ll]ine:? (\d+)/.exec(msg);
  if (m) {
    const f = files.find((x) => x.path === m[1]);
    return new SourceError('malformed_file', `Malformed ${files[0]!.format.toUpperCase()} ${f ? name(f) : m[1]} at line ${m[2]}: ${msg}. The previous data was kept.`, { file: f ? name(f) : m[1], line: Number(m[2]) });
  }
  const missing = files.find((f) => !fs.existsSync(f.path));
  if (missing) return new SourceError('file_vanished', `${name(missing)} disappeared while it was being loaded; the previous data was kept. Sync again.`, { file: name(missing) });
  const listed = files.length === 1 ? name(files[0]!) : `one of ${files.length} files (${files.slice(0, 3).map(name).join(', ')}${files.length > 3 ? ', ...' : ''})`;
  return new SourceError('load_failed', `Could not load ${listed}: ${msg}. The previous data was kept.`);
}
