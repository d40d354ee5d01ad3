import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { envSecretKeys, errors, isSealed, openEnvValue, sealEnvValue, writeFileAtomic } from '@basin/core';
import { EnvDocument, UnwritableValueError } from './env-file.js';
import { isValidKey, RESERVED_KEYS } from './key-name.js';

/** what a listing shows of a variable: never its value */
export interface SecretListing {
  key: string;
  value: string;
  /** sealed with BASIN_SECRET_KEY in the file */
  encrypted: boolean;
  /** the server's own environment sets this name, so the file's value is not the one in use */
  overridden_by_environment: boolean;
}

export const MASK = '********';

/** Who changed a secret and from where, for the audit log. */
export interface SecretActor {
  id: string | null;
  email: string | null;
  ip: string | null;
  via: 'api' | 'cli';
}

export type SecretAudit = (
  action: 'secret.set' | 'secret.unset' | 'secret.rotate' | 'oauth.connect_started' | 'oauth.connect' | 'oauth.disconnect',
  actor: SecretActor,
  key: string | null,
  details: Record<string, unknown>,
  outcome?: 'success' | 'failure',
) => void;

/**
 * The project's `.env`: read, set and unset one variable at a time. Every write replaces the file
 * atomically (temp file, fsync, rename, mode 0600): a crash leaves the old file or the new one, never
 * half of one. With BASIN_SECRET_KEY in the server's environment new values are sealed (AES-256-GCM).
 */
export class SecretsStore {
  readonly file: string;

  constructor(
    projectDir: string,
    private readonly audit: SecretAudit = () => {},
    private readonly environment: NodeJS.ProcessEnv = process.env,
    /** re-seals what else the key protects (stored OAuth tokens) during a rotation; returns how many */
    private readonly resealOthers: (keys: Buffer[]) => number = () => 0,
  ) {
    this.file = path.join(projectDir, '.env');
  }

  private read(): EnvDocument {
    return EnvDocument.parse(fs.existsSync(this.file) ? fs.readFileSync(this.file, 'utf8') : '');
  }

  private values(): Record<string, string> {
    return fs.existsSync(this.file) ? dotenv.parse(fs.readFileSync(this.file)) : {};
  }

  private write(doc: EnvDocument): void {
    this.removeStaleTemps();
    writeFileAtomic(this.file, doc.toString(), 0o600);
    fs.chmodSync(this.file, 0o600);
  }

  /** temp files a killed writer left behind (`.env.<pid>.<rand>.tmp` of a process that is gone) */
  private removeStaleTemps(): void {
    const dir = path.dirname(this.file);
    for (const f of fs.readdirSync(dir)) {
      const m = /^\.\.env\.(\d+)\.[0-9a-f]+\.tmp$/.exec(f);
      if (!m || Number(m[1]) === process.pid) continue;
      try {
        process.kill(Number(m[1]), 0);
      } catch {
        fs.rmSync(path.join(dir, f), { force: true });
      }
    }
  }

  get encrypting(): boolean {
    return !!this.environment.BASIN_SECRET_KEY;
  }

  list(): SecretListing[] {
    const values = this.values();
    return this.read()
      .keys()
      .map((key) => ({ key, value: MASK, encrypted: isSealed(values[key] ?? ''), overridden_by_environment: this.environment[key] !== undefined }));
  }

  has(key: string): boolean {
    return this.read().has(key);
  }

  /** adds or updates a variable; `created` tells which */
  set(key: string, value: string, actor: SecretActor): { created: boolean; encrypted: boolean } {
    this.checkKey(key);
    if (value.includes('\0')) throw errors.badRequest('The value contains a NUL character, which an environment variable cannot hold.', { field: 'value' }, 'invalid_secret_value');
    const doc = this.read();
    const created = !doc.has(key);
    const keys = envSecretKeys(this.environment);
    const stored = keys[0] ? sealEnvValue(value, keys[0]) : value;
    try {
      doc.set(key, stored);
    } catch (e) {
      if (e instanceof UnwritableValueError) throw errors.badRequest(e.message, { field: 'value' }, 'invalid_secret_value');
      throw e;
    }
    this.write(doc);
    this.audit('secret.set', actor, key, { created, encrypted: !!keys[0] });
    return { created, encrypted: !!keys[0] };
  }

  unset(key: string, actor: SecretActor): void {
    this.checkKey(key);
    const doc = this.read();
    if (!doc.unset(key)) throw errors.notFound(`Secret ${key}`);
    this.write(doc);
    this.audit('secret.unset', actor, key, {});
  }

  /**
   * Re-seals every value with the current BASIN_SECRET_KEY (opening old ones with
   * BASIN_SECRET_KEY_PREVIOUS), or seals plain values when encryption is newly turned on.
   */
  rotate(actor: SecretActor): { resealed: number; oauth_tokens: number } {
    const keys = envSecretKeys(this.environment);
    if (!keys[0]) throw errors.badRequest('Set BASIN_SECRET_KEY (the new key) and, when rotating, BASIN_SECRET_KEY_PREVIOUS (the old one) in the environment first.', undefined, 'secret_key_missing');
    const values = this.values();
    const doc = this.read();
    let n = 0;
    for (const key of doc.keys()) {
      const v = values[key] ?? '';
      doc.set(key, sealEnvValue(isSealed(v) ? openEnvValue(key, v, keys) : v, keys[0]));
      n++;
    }
    this.write(doc);
    const tokens = this.resealOthers(keys);
    this.audit('secret.rotate', actor, null, { resealed: n, oauth_tokens: tokens });
    return { resealed: n, oauth_tokens: tokens };
  }

  private checkKey(key: string): void {
    if (!isValidKey(key)) throw errors.validation('The key is not a variable name: use letters, digits and underscores (at most 128), not starting with a digit.', [{ path: 'body.key', message: 'must be an environment variable name' }]);
    if (RESERVED_KEYS.has(key)) throw errors.badRequest(`${key} seals .env and belongs in the server's environment, not in .env.`, { field: 'key' }, 'reserved_secret_key');
  }
}
