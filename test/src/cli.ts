import { PassThrough } from 'node:stream';
import { runCli } from '@basin/core';

export interface CapturedCli {
  code: number;
  out: string;
  err: string;
  /** stdout and stderr in the order they were written */
  all: string;
}

/** runs `basin <args>` in this process, as the shell would, and keeps what it printed */
export async function runCliCaptured(args: string[]): Promise<CapturedCli> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  let all = '';
  stdout.on('data', (b) => ((out += b), (all += b)));
  stderr.on('data', (b) => ((err += b), (all += b)));
  const code = await runCli(args, { stdout, stderr });
  return { code, out, err, all };
}
