// moto's S3-compatible server for tests: started on a free loopback port (werkzeug prints the one it
// took), a bucket made, stop() ends it. scripts/setup.d/60-moto.mjs installs it.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface MotoServer {
  endpoint: string;
  /** moto accepts any keys */
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

export function motoServerBin(): string | null {
  const dir = process.env.BASIN_MOTO_VENV_DIR ?? path.join(os.homedir(), '.cache', 'basin', 'venv-moto');
  const bin = path.join(dir, 'bin', 'moto_server');
  return fs.existsSync(bin) ? bin : null;
}

export async function startMoto(): Promise<MotoServer> {
  const bin = motoServerBin();
  if (!bin) throw new Error('moto is not installed; run: node scripts/setup.mjs moto');
  const child: ChildProcess = spawn(bin, ['-H', '127.0.0.1', '-p', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONUNBUFFERED: '1' } });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const onData = (d: Buffer) => {
      seen += String(d);
      const m = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`moto_server exited (${code}): ${seen.slice(-500)}`)));
    setTimeout(() => reject(new Error(`moto_server did not start: ${seen.slice(-500)}`)), 30_000).unref();
  });
  return {
    endpoint,
    accessKeyId: 'test-access-key',
    secretAccessKey: 'test-secret-key-not-real',
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
