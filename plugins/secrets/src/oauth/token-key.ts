import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { envSecretKeys, parseSecretKey, writeFileAtomic } from '@basin/core';

/**
 * The key that seals stored OAuth tokens: BASIN_SECRET_KEY from the server's environment, else
 * `.basin/secret.key` (created 0600 on first use, as the auth plugin does for 2FA secrets), so the
 * tokens are never stored in the clear. The previous key (rotation) still opens old tokens.
 */
export function tokenKeys(projectDir: string, env: NodeJS.ProcessEnv = process.env): Buffer[] {
  const fromEnv = envSecretKeys(env);
  if (fromEnv.length) return fromEnv;
  const file = path.join(projectDir, '.basin', 'secret.key');
  if (!fs.existsSync(file)) writeFileAtomic(file, `${crypto.randomBytes(32).toString('base64')}\n`, 0o600);
  return [parseSecretKey(fs.readFileSync(file, 'utf8'), file)];
}

/** the project's `.basin/secret.key` when it exists (tokens sealed before BASIN_SECRET_KEY was set) */
export function fileKeys(projectDir: string): Buffer[] {
  const file = path.join(projectDir, '.basin', 'secret.key');
  return fs.existsSync(file) ? [parseSecretKey(fs.readFileSync(file, 'utf8'), file)] : [];
}
