// A throwaway OpenSSH server for the deploy tests: its own host key, one authorized client key, on a
// free loopback port, logging in as the user running the tests. scripts/setup.d/70-sshd.mjs installs
// Debian's openssh-server; stop() ends it and removes its files.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './server-process.js';

export interface SshServer {
  host: string;
  port: number;
  user: string;
  /** private key of the authorized client */
  keyPath: string;
  stop(): Promise<void>;
}

export const SSHD = '/usr/sbin/sshd';


async function waitForPort(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`sshd did not listen on ${port}`);
}

export async function startSshd(): Promise<SshServer> {
  if (!fs.existsSync(SSHD)) throw new Error('openssh-server is not installed; run: node scripts/setup.mjs sshd');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-sshd-'));
  fs.chmodSync(dir, 0o700);
  for (const k of ['host_key', 'client_key']) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', path.join(dir, k)]);
  fs.copyFileSync(path.join(dir, 'client_key.pub'), path.join(dir, 'authorized_keys'));
  const port = await freePort();
  const user = os.userInfo().username;
  const config = [
    `Port ${port}`,
    'ListenAddress 127.0.0.1',
    `HostKey ${path.join(dir, 'host_key')}`,
    `PidFile ${path.join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${path.join(dir, 'authorized_keys')}`,
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'UsePAM no',
    'StrictModes no',
    `AllowUsers ${user}`,
    'LogLevel ERROR',
    '',
  ].join('\n');
  fs.writeFileSync(path.join(dir, 'sshd_config'), config);
  fs.mkdirSync('/run/sshd', { recursive: true }); // privilege separation directory sshd insists on
  const child = spawn(SSHD, ['-D', '-e', '-f', path.join(dir, 'sshd_config')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  await Promise.race([waitForPort(port), new Promise((_, reject) => child.once('exit', (c) => reject(new Error(`sshd exited ${c}: ${stderr}`))))]);
  return {
    host: '127.0.0.1',
    port,
    user,
    keyPath: path.join(dir, 'client_key'),
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => (fs.rmSync(dir, { recursive: true, force: true }), resolve());
        if (child.exitCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGTERM');
      }),
  };
}
