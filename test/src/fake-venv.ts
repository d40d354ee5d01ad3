import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A companion virtualenv that nothing was installed into: `bin/python` is this machine's Python, `bin/<tool>`
 * an empty script, and the stamp records `pins` as installed (its first line a hash of another pin
 * set), so doctor and `setup` commands can be tested without pip.
 */
export function fakeCompanionVenv(venv: string, tool: string, pins: readonly string[]): void {
  fs.mkdirSync(path.join(venv, 'bin'), { recursive: true });
  fs.rmSync(path.join(venv, 'bin', 'python'), { force: true });
  fs.symlinkSync(execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim(), path.join(venv, 'bin', 'python'));
  fs.writeFileSync(path.join(venv, 'bin', tool), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(venv, '.basin-requirements'), ['0000000000000000', ...pins].join('\n') + '\n');
}
