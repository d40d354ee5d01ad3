import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '@basin/core';

export const sha256 = (s: string): string => crypto.createHash('sha256').update(s).digest('hex');

/** URL-safe random string of `chars` characters (6 bits of entropy each). */
export function randomToken(chars = 43): string {
  return crypto.randomBytes(Math.ceil((chars * 3) / 4)).toString('base64url').slice(0, chars);
}

export const newId = (): string => crypto.randomUUID();

/** constant-time comparison of two strings of possibly different length */
export function safeEqual(a: string, b: string): boolean {
  const ha = crypto.createHash('sha256').update(a).digest();
  const hb = crypto.createHash('sha256').update(b).digest();
  return crypto.timingSafeEqual(ha, hb) && a.length === b.length;
}

/**
 * AES-256-GCM for secrets at rest (TOTP secrets). The key lives outside auth.db: env BASIN_SECRET_KEY
 * (base64 or hex of 32 bytes) or `.basin/secret.key` (created 0600 on first use).
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static load(projectDir: string, envKey: string | undefined): SecretBox {
    if (envKey) return new SecretBox(parseKey(envKey, 'BASIN_SECRET_KEY'));
    const file = path.join(projectDir, '.basin', 'secret.key');
    if (!fs.existsSync(file)) writeFileAtomic(file, `${crypto.randomBytes(32).toString('base64')}\n`, 0o600);
    return new SecretBox(parseKey(fs.readFileSync(file, 'utf8').trim(), file));
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const c = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
    return ['v1', iv.toString('base64'), c.getAuthTag().toString('base64'), body.toString('base64')].join(':');
  }

  open(sealed: string): string {
    const [v, iv, tag, body] = sealed.split(':');
    if (v !== 'v1' || !iv || !tag || body === undefined) throw new Error('unrecognised sealed secret');
    const d = crypto.createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    d.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([d.update(Buffer.from(body, 'base64')), d.final()]).toString('utf8');
  }
}

function parseKey(s: string, where: string): Buffer {
  const buf = /^[0-9a-f]{64}$/i.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64');
  if (buf.length !== 32) throw new Error(`${where} must hold a 32-byte key (base64 or hex).`);
  return buf;
}
