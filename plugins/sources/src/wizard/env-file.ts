import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { writeFileAtomic } from '@basin/core';

/** the project's .env variables (empty when there is none) */
export function readEnvFile(projectDir: string): Record<string, string> {
  try {
    return dotenv.parse(fs.readFileSync(path.join(projectDir, '.env'), 'utf8'));
  } catch {
    return {};
  }
}

const quote = (v: string) => (/^[A-Za-z0-9_./:@+-]*$/.test(v) ? v : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`);

/** sets one variable in the project's .env (replacing an earlier line of it), readable by the owner only */
export function writeEnvVariable(projectDir: string, name: string, value: string): void {
  const file = path.join(projectDir, '.env');
  const text = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  const kept = text.split('\n').filter((l) => !new RegExp(`^\\s*(export\\s+)?${name}\\s*=`).test(l));
  while (kept.length && kept.at(-1) === '') kept.pop();
  kept.push(`${name}=${quote(value)}`);
  writeFileAtomic(file, `${kept.join('\n')}\n`, 0o600);
}
