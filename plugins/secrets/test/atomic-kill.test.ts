// A writer killed mid-write (SIGKILL, no chance to clean up) leaves .env whole: the old file or the new
// one, every other line intact, never a truncated value.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import dotenv from 'dotenv';
import { makeProject } from '@basin/test';
import { SecretsStore } from '../src/store.js';

const here = path.dirname(fileURLToPath(import.meta.url));

test('SIGKILL during rewrites never leaves a half-written .env', async () => {
  const dir = makeProject({ '.env': '# header\nKEEP=1\n' });
  for (let round = 0; round < 4; round++) {
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(here, 'fixtures/writer.ts'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => String(d).includes('ready') && resolve());
      child.on('exit', (code) => reject(new Error(`writer exited ${code}`)));
    });
    // let it get well into later writes, at a different point each round
    await new Promise((r) => setTimeout(r, 150 + round * 97));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const text = fs.readFileSync(path.join(dir, '.env'), 'utf8');
    const parsed = dotenv.parse(text);
    assert.ok(text.startsWith('# header\nKEEP=1\n'), 'the lines around the variable are intact');
    assert.equal(parsed.KEEP, '1');
    assert.ok(/^(a+|b+)$/.test(parsed.BIG ?? '') && parsed.BIG!.length === 4 << 20, `BIG is one whole value (length ${parsed.BIG?.length})`);
  }
  // the next write clears the temp files the killed writers left
  new SecretsStore(dir).set('AFTER', '1', { id: null, email: null, ip: null, via: 'cli' });
  assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.tmp')), []);
});
