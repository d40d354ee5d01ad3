import { createVerify, generateKeyPairSync } from 'node:crypto';
import type { FakeHandler } from './fake-vendor.js';

export interface FakeServiceAccount {
  /** the key file's JSON, as a user pastes it into the environment variable */
  keyJson: string;
  /** the access token the fake token endpoint hands out */
  accessToken: string;
  /** `POST /token` of Google's OAuth server: verifies the JWT-bearer assertion's signature, issuer, audience and scope */
  tokenRoute: FakeHandler;
}

/**
 * A Google service account for tests: a fresh RSA key pair, the key JSON pointing its `token_uri`
 * at the fake, and the token endpoint checking assertions as Google does (RFC 7523, RS256).
 */
export function fakeServiceAccount(tokenUri: string, scope: string): FakeServiceAccount {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const email = 'basin-test@project.iam.gserviceaccount.com';
  const accessToken = `ya29.fake-${Math.random().toString(36).slice(2)}`;
  const keyJson = JSON.stringify({
    type: 'service_account',
    project_id: 'project',
    private_key_id: 'k1',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    client_email: email,
    token_uri: tokenUri,
  });
  const tokenRoute: FakeHandler = (req) => {
    const bad = (description: string) => ({ status: 400, body: { error: 'invalid_grant', error_description: description } });
    if (req.body?.grant_type !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return bad('grant_type');
    const parts = String(req.body.assertion ?? '').split('.');
    if (parts.length !== 3) return bad('Invalid JWT');
    const ok = createVerify('RSA-SHA256').update(`${parts[0]}.${parts[1]}`).verify(publicKey, Buffer.from(parts[2]!, 'base64url'));
    if (!ok) return bad('Invalid JWT Signature.');
    const claims = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString()) as { iss?: string; aud?: string; scope?: string; exp?: number };
    if (claims.iss !== email || claims.aud !== tokenUri || !claims.scope?.split(' ').includes(scope)) return bad('Invalid JWT claims');
    return { body: { access_token: accessToken, expires_in: 3599, token_type: 'Bearer' } };
  };
  return { keyJson, accessToken, tokenRoute };
}
