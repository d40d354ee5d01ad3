import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resolveOAuthToken, SourceError, type OAuthTokenSpec } from '../src/index.js';

const spec: OAuthTokenSpec = { kind: 'oauth2_token', tokenEnv: 'SHOP_TOKEN', provider: 'shopify' };
const env = (vars: Record<string, string>) => (name: string): string => {
  const v = vars[name];
  if (!v) throw new SourceError('missing_secret', `Environment variable "${name}" is not set.`, { variable: name });
  return v;
};

test('an oauth2 token comes from the named variable when it is set, else from the provider connection', async () => {
  const connection = async () => ({ accessToken: 'from-connection' });
  assert.equal(await resolveOAuthToken(spec, env({ SHOP_TOKEN: 'from-env' }), connection), 'from-env');
  assert.equal(await resolveOAuthToken(spec, env({}), connection), 'from-connection');
});

test('with neither, the error names the variable to set (not the connection failure)', async () => {
  const notConnected = async (): Promise<{ accessToken: string }> => {
    throw new SourceError('oauth_not_connected', 'No OAuth connection for "shopify".');
  };
  await assert.rejects(resolveOAuthToken(spec, env({}), notConnected), (e: SourceError) => e.code === 'missing_secret' && /SHOP_TOKEN/.test(e.message));
  await assert.rejects(resolveOAuthToken(spec, env({})), (e: SourceError) => e.code === 'missing_secret');
});
