import crypto from 'node:crypto';

/**
 * Encryption at rest for values in the project's `.env` (optional). A sealed value reads
 * `basin-enc:v1:<iv>:<tag>:<ciphertext>` (base64, AES-256-GCM). The key is never in `.env`: it comes from
 * the process environment, `BASIN_SECRET_KEY` (32 bytes, base64 or hex); during a rotation the old key
 * sits in `BASIN_SECRET_KEY_PREVIOUS` so values sealed with it still open until they are re-sealed.
 */
export const SEALED_PREFIX = 'basin-enc:v1:';

export function isSealed(value: string): boolean {
  return value.startsWith(SEALED_PREFIX);
}

/** a 32-byte key from its base64 or hex text; `where` names the variable in the error */
export function parseSecretKey(text: string, where: string): Buffer {
  const s = text.trim();
  const buf = /^[0-9a-f]{64}$/i.test(s) ? Buffer.from(s, 'hex') : Buffer.from(s, 'base64');
  if (buf.length !== 32) throw new Error(`${where} must hold a 32-byte key (base64 or hex); generate one with: openssl rand -base64 32`);
  return buf;
}

/** the keys that may open a sealed value: current first, then the previous one during a rotation */
export function envSecretKeys(env: NodeJS.ProcessEnv = process.env): Buffer[] {
  const out: Buffer[] = [];
  if (env.BASIN_SECRET_KEY) out.push(parseSecretKey(env.BASIN_SECRET_KEY, 'BASIN_SECRET_KEY'));
  if (env.BASIN_SECRET_KEY_PREVIOUS) out.push(parseSecretKey(env.BASIN_SECRET_KEY_PREVIOUS, 'BASIN_SECRET_KEY_PREVIOUS'));
  return out;
}

export function sealEnvValue(plain: string, key: Buffer): string {
  const iv = crypto.randomBytes(12);
  const c = crypto.createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `${SEALED_PREFIX}${iv.toString('base64')}:${c.getAuthTag().toString('base64')}:${body.toString('base64')}`;
}

/** opens a sealed value with the first key that fits; the error names the variable, never its value */
export function openEnvValue(name: string, sealed: string, keys: Buffer[] = envSecretKeys()): string {
  const [iv, tag, body] = sealed.slice(SEALED_PREFIX.length).split(':');
  if (!iv || !tag || body === undefined) throw new Error(`The value of ${name} in .env is damaged (not a complete sealed value); set it again with "basin secrets set ${name}".`);
  if (!keys.length) throw new Error(`${name} in .env is encrypted; start Basin with BASIN_SECRET_KEY set to the key it was sealed with.`);
  for (const key of keys) {
    try {
      const d = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      d.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([d.update(Buffer.from(body, 'base64')), d.final()]).toString('utf8');
    } catch {
      /* try the next key */
    }
  }
  throw new Error(`${name} in .env is encrypted with a key Basin was not given; set BASIN_SECRET_KEY (and BASIN_SECRET_KEY_PREVIOUS during a rotation) to the key it was sealed with.`);
}
