import { spawn } from 'node:child_process';

/** How to reach the server: the system's OpenSSH client with the project's key and its own known_hosts. */
export interface SshTarget {
  host: string;
  user: string;
  port: number;
  keyPath: string;
  knownHosts: string;
}

export function sshArgs(t: SshTarget): string[] {
  return [
    '-i', t.keyPath,
    '-p', String(t.port),
    '-o', 'BatchMode=yes',
    '-o', 'IdentitiesOnly=yes',
    '-o', 'StrictHostKeyChecking=accept-new',
    '-o', `UserKnownHostsFile=${t.knownHosts}`,
    '-o', 'ConnectTimeout=20',
    '-o', 'LogLevel=ERROR',
    `${t.user}@${t.host}`,
  ];
}

/** single-quotes a word for the remote POSIX shell */
export const sq = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

export interface RemoteResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a shell script on the server. `input` (a buffer or a stream of a tar archive, a file's content)
 * goes to its stdin, so files travel inside the SSH channel and never through argv.
 */
export function remote(t: SshTarget, script: string, input?: Buffer | NodeJS.ReadableStream): Promise<RemoteResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('ssh', [...sshArgs(t), script], { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', (e) => reject(new Error(`could not run ssh: ${e.message} (install openssh-client)`)));
    child.on('close', (code) => resolve({ code: code ?? 1, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') }));
    if (input === undefined) child.stdin.end();
    else if (Buffer.isBuffer(input)) child.stdin.end(input);
    else input.pipe(child.stdin);
  });
}
