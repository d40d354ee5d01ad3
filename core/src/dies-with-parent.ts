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
 * defaults to the interpreter beside `program` (a virtualenv's bin/); when there is none, the program
 * runs as before.
 */
export function diesWithParent(program: string, args: string[], python = path.join(path.dirname(program), 'python')): { command: string; args: string[] } {
  if (process.platform !== 'linux' || !fs.existsSync(python)) return { command: program, args };
  return { command: python, args: ['-c', WRAPPER, String(process.pid), program, ...args] };
}
