// moto's S3-compatible server (PyPI) for the backup tests (test/support/moto.ts starts it on a free
// loopback port once per test file). Its own virtualenv under ~/.cache/basin so its Flask/boto pins
// never meet the dbt, marimo or Superset venvs. Idempotent: a stamp holds the pins it was built with.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const MOTO_REQUIREMENTS = ['moto[s3,server]==5.2.5'];
export const motoVenvDir = () => process.env.BASIN_MOTO_VENV_DIR ?? path.join(os.homedir(), '.cache', 'basin', 'venv-moto');

export default () => {
  const dir = motoVenvDir();
  const stamp = path.join(dir, '.basin-requirements');
  const want = MOTO_REQUIREMENTS.join('\n');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === want && fs.existsSync(path.join(dir, 'bin', 'moto_server'))) {
    console.log(`[setup] moto virtualenv up to date at ${dir}`);
    return;
  }
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  if (!fs.existsSync(path.join(dir, 'bin', 'python'))) execFileSync('python3', ['-m', 'venv', dir], { stdio: 'inherit' });
  execFileSync(path.join(dir, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', ...MOTO_REQUIREMENTS], { stdio: 'inherit' });
  fs.writeFileSync(stamp, want);
  console.log(`[setup] moto virtualenv installed at ${dir}`);
};
