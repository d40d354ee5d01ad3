import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempTestDir } from '@basin/sdk/testkit';
import { diesWithParent } from '../src/dies-with-parent.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const realPython = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim();

/** a fake virtualenv bin/: `python` and a companion program run by it (prints its arguments, then sleeps or exits) */
function fakeVenv(): { program: string } {
  const bin = path.join(tempTestDir('basin-pdeath-'), 'bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.symlinkSync(realPython, path.join(bin, 'python'));
  const program = path.join(bin, 'companion');
  fs.writeFileSync(program, `#!${realPython}\nimport sys, time\nprint('args', sys.argv[1:], flush=True)\nif sys.argv[1] == 'sleep':\n    time.sleep(120)\nsys.exit(int(sys.argv[2]))\n`, { mode: 0o755 });
  return { program };
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  // an orphan that died but was not reaped yet (the machine's init may not reap) counts as gone
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
}

test('the wrapped program gets its arguments and its exit code is the wrapper\'s', { skip: process.platform !== 'linux' && 'Linux only' }, () => {
  const { program } = fakeVenv();
  const run = diesWithParent(program, ['exit', '3']);
  assert.equal(run.command, path.join(path.dirname(program), 'python'), 'runs through the interpreter beside the program');
  const r = spawnSync(run.command, run.args, { encoding: 'utf8' });
  assert.equal(r.status, 3, r.stderr);
  assert.match(r.stdout, /args \['exit', '3'\]/);
});

test('a bare interpreter name (a scheduled script without the project venv) is found on PATH and wrapped', { skip: process.platform !== 'linux' && 'Linux only' }, () => {
  const run = diesWithParent('python3', ['-c', 'import sys; print(sys.argv[1:]); sys.exit(4)', 'a b'], 'python3');
  assert.ok(path.isAbsolute(run.command), run.command);
  assert.equal(run.args[0], '-I', 'the wrapper ignores the working directory and PYTHON* variables for its own imports');
  const r = spawnSync(run.command, run.args, { encoding: 'utf8', cwd: fakeVenvDirWithSignalPy() });
  assert.equal(r.status, 4, r.stderr);
  assert.match(r.stdout, /\['a b'\]/);
});

/** a working directory with a signal.py that would break the wrapper if it were imported from there */
function fakeVenvDirWithSignalPy(): string {
  const dir = tempTestDir('basin-pdeath-cwd-');
  fs.writeFileSync(path.join(dir, 'signal.py'), 'raise SystemExit(9)\n');
  return dir;
}

test('a program without an interpreter beside it runs as it is', () => {
  assert.deepEqual(diesWithParent('/usr/bin/env', ['true']), { command: '/usr/bin/env', args: ['true'] });
});

test('a companion stops when the Basin process that started it is SIGKILLed', { skip: process.platform !== 'linux' && 'Linux only' }, async () => {
  const { program } = fakeVenv();
  // the "Basin" process: starts the companion through diesWithParent, says its pid, then waits
  const parentScript = path.join(path.dirname(program), 'basin.mts');
  fs.writeFileSync(
    parentScript,
    `import { spawn } from 'node:child_process';\nimport { diesWithParent } from ${JSON.stringify(path.join(here, '..', 'src', 'dies-with-parent.ts'))};\nconst run = diesWithParent(${JSON.stringify(program)}, ['sleep']);\nconst c = spawn(run.command, run.args, { stdio: ['ignore', 'pipe', 'inherit'] });\nc.stdout.once('data', () => console.log('child', c.pid));\nsetInterval(() => {}, 1000);\n`,
  );
  const parent = spawn(process.execPath, ['--import', 'tsx', parentScript], { stdio: ['ignore', 'pipe', 'inherit'] });
  let childPid = 0;
  try {
    childPid = await new Promise<number>((resolve, reject) => {
      let out = '';
      parent.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /child (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      parent.once('exit', (code) => reject(new Error(`the parent exited (${code}) before starting the companion`)));
    });
    assert.ok(!gone(childPid), 'the companion runs');
    parent.kill('SIGKILL');
    const until = Date.now() + 15_000;
    while (!gone(childPid) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    assert.ok(gone(childPid), 'the companion was stopped when its parent died');
  } finally {
    parent.kill('SIGKILL');
    if (childPid && !gone(childPid)) process.kill(childPid, 'SIGKILL');
  }
});
