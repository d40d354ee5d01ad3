import fs from 'node:fs';
import path from 'node:path';

// Run by the companion's own Python before it becomes the companion: asks Linux to send it SIGTERM when
// the process that started it (Basin) dies (prctl PR_SET_PDEATHSIG, kept across execve), exits if Basin
// is already gone, then replaces itself with the program. Elsewhere prctl is missing and it just runs.
const WRAPPER = [
  'import ctypes, os, signal, sys',
  'try:',
  '    ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))',
  'except Exception:',
  '    pass',
  'if os.getppid() != int(sys.argv[1]):',
  '    sys.exit(1)',
  'os.execv(sys.argv[2], sys.argv[2:])',
].join('\n');

/**
 * The command and arguments that run `program args` (a Python companion: gunicorn for Superset, marimo,
 * dbt) so that it stops when Basin stops in any way, a SIGKILL or a crash included. Without it a killed
 * Basin left Superset holding its port and dbt holding the warehouse file for the next start. `python`
 * defaults to the interpreter beside `program` (a virtualenv's bin/); a bare name (`python3`) is
 * looked up on PATH. When there is no interpreter, the program runs as before.
 */
export function diesWithParent(program: string, args: string[], python?: string): { command: string; args: string[] } {
  const exe = onPath(program);
  const interpreter = python === undefined ? (exe ? path.join(path.dirname(exe), 'python') : null) : onPath(python);
  if (process.platform !== 'linux' || !exe || !interpreter || !fs.existsSync(interpreter)) return { command: program, args };
  // -I: the wrapper's own imports never come from the working directory (a project's signal.py)
  return { command: interpreter, args: ['-I', '-c', WRAPPER, String(process.pid), exe, ...args] };
}

/** `name` as an absolute path: itself when it has a directory part, else found on PATH (execv does not search it) */
function onPath(name: string): string | null {
  if (name.includes(path.sep)) return path.resolve(name);
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir || '.', name);
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return path.resolve(candidate);
    } catch {
      // not here
    }
  }
  return null;
}
