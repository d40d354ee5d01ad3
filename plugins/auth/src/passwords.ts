import crypto from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
// bcrypt's native addon loads with the first hash or verify, not with every CLI command
const bcrypt = async () => (await import('bcrypt')).default;
import { errors } from '@basin/core';
import { authErrors } from './errors.js';

export const BCRYPT_ROUNDS = 12;
export const MIN_PASSWORD_LENGTH = 8;

/**
 * bcrypt reads at most 72 bytes. Every password is first reduced to base64(SHA-256(password)) (44 ASCII
 * bytes, no NUL), so long passwords keep all their entropy and there is no maximum length.
 */
const prehash = (password: string): string => crypto.createHash('sha256').update(password, 'utf8').digest('base64');

export async function hashPassword(password: string, rounds = BCRYPT_ROUNDS): Promise<string> {
  return (await bcrypt()).hash(prehash(password), rounds);
}

export async function verifyPassword(password: string, hash: string): Promise<boolean> {
  return (await bcrypt()).compare(prehash(password), hash);
}

/** A valid bcrypt-12 hash of a random string: failure paths verify against it so their timing matches a real check. */
let dummy: Promise<string> | undefined;
export async function dummyVerify(password: string): Promise<void> {
  dummy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
}

let common: Set<string> | undefined;
function commonPasswords(): Set<string> {
  if (common) return common;
  // src/ in development; dist/ bundles sit next to src/ in the package
  const candidates = [new URL('./common-passwords.txt', import.meta.url), new URL('../src/common-passwords.txt', import.meta.url)];
  const file = candidates.map((u) => fileURLToPath(u)).find((f) => fs.existsSync(f));
  if (!file) throw new Error('common-passwords.txt is missing from the auth plugin package');
  common = new Set(
    fs.readFileSync(file, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')),
  );
  return common;
}

/** SPEC password policy: at least 8 characters, no maximum, no complexity rules, not a common password. */
export function checkPasswordPolicy(password: string, email?: string): void {
  if ([...password].length < MIN_PASSWORD_LENGTH) {
    throw authErrors.password_too_short({ min: MIN_PASSWORD_LENGTH }, { details: { field: 'password' } });
  }
  const lower = password.toLowerCase();
  if (commonPasswords().has(lower) || (email && lower === email.toLowerCase())) {
    throw authErrors.password_too_common({ details: { field: 'password' } });
  }
}

export const commonPasswordCount = (): number => commonPasswords().size;
