// schemathesis (pinned) in its own virtualenv under ~/.cache/basin, for the API conformance test
// (test/api-schemathesis.test.ts): it fuzzes every operation of the OpenAPI document and checks each
// response's status, content type, headers and body against it. Idempotent: a stamp file records the pin.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const VERSION = '4.32.5'; // keep in step with test/support/schemathesis.ts

export default () => {
  const venv = process.env.BASIN_SCHEMATHESIS_VENV ?? path.join(os.homedir(), '.cache', 'basin', 'venv-schemathesis');
  const stamp = path.join(venv, '.basin-pin');
  if (fs.existsSync(stamp) && fs.readFileSync(stamp, 'utf8') === VERSION && fs.existsSync(path.join(venv, 'bin', 'st'))) {
    console.log(`[setup] schemathesis ${VERSION} ready in ${venv}`);
    return;
  }
  fs.mkdirSync(path.dirname(venv), { recursive: true });
  if (!fs.existsSync(path.join(venv, 'bin', 'python'))) execFileSync('python3', ['-m', 'venv', venv], { stdio: 'inherit' });
  console.log(`[setup] pip install schemathesis==${VERSION} into ${venv}`);
  execFileSync(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', `schemathesis==${VERSION}`], { stdio: 'inherit' });
  fs.writeFileSync(stamp, VERSION);
};
