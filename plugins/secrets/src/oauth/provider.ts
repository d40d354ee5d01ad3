import { errors } from '@basin/core';
import type { OAuthProviderManifest, SourceDefinition } from '@basin/sdk';
import type { OAuthSection } from './config.js';

/** A source type's provider with the project's overrides applied and the client's credentials read. */
export interface ResolvedProvider {
  sourceType: string;
  authorizationUrl: string;
  tokenUrl: string;
  userinfoUrl: string | null;
  scopes: string[];
  authorizationParams: Record<string, string>;
  tokenAuth: 'client_secret_post' | 'client_secret_basic';
  clientIdEnv: string;
  clientSecretEnv: string;
}

export interface ProviderCredentials {
  clientId: string;
  clientSecret: string;
}

const defaultEnv = (type: string, what: 'CLIENT_ID' | 'CLIENT_SECRET') => `${type.toUpperCase()}_OAUTH_${what}`;

/** whether a source type takes provider OAuth at all */
export const isOAuthType = (def: SourceDefinition | undefined): boolean => !!def && (def.authKind === 'oauth2' || !!def.oauth);

/** the manifest's provider merged with `oauth.providers.<type>`; null fields when neither says */
export function providerFor(type: string, def: SourceDefinition | undefined, section: OAuthSection): Partial<ResolvedProvider> & { sourceType: string } {
  const m: Partial<OAuthProviderManifest> = def?.oauth ?? {};
  const o = section.providers?.[type] ?? {};
  return {
    sourceType: type,
    authorizationUrl: o.authorization_url ?? m.authorizationUrl,
    tokenUrl: o.token_url ?? m.tokenUrl,
    userinfoUrl: o.userinfo_url ?? m.userinfoUrl ?? null,
    scopes: o.scopes ?? m.scopes ?? [],
    authorizationParams: m.authorizationParams ?? {},
    tokenAuth: o.token_auth ?? m.tokenAuth ?? 'client_secret_post',
    clientIdEnv: o.client_id_env ?? m.clientIdEnv ?? defaultEnv(type, 'CLIENT_ID'),
    clientSecretEnv: o.client_secret_env ?? m.clientSecretEnv ?? defaultEnv(type, 'CLIENT_SECRET'),
  };
}

/** the provider ready to use, or a 4xx saying what is missing (never a secret's value) */
export function resolveProvider(type: string, def: SourceDefinition | undefined, section: OAuthSection, env: (name: string) => string | undefined): { provider: ResolvedProvider; credentials: ProviderCredentials } {
  if (!def) throw errors.notFound(`Source type "${type}"`);
  if (!isOAuthType(def)) throw errors.badRequest(`Source type "${type}" does not use provider OAuth (its auth is ${def.authKind}).`, { source_type: type }, 'oauth_not_supported');
  const p = providerFor(type, def, section);
  if (!p.authorizationUrl || !p.tokenUrl) {
    throw errors.badRequest(
      `The "${type}" source does not name its OAuth endpoints; set oauth.providers.${type}.authorization_url and token_url in .basin/project.yml.`,
      { source_type: type },
      'oauth_provider_unconfigured',
    );
  }
  const clientId = env(p.clientIdEnv!);
  const clientSecret = env(p.clientSecretEnv!);
  const missing = [!clientId && p.clientIdEnv, !clientSecret && p.clientSecretEnv].filter(Boolean);
  if (missing.length) {
    throw errors.badRequest(
      `The OAuth client for "${type}" is not set up: add ${missing.join(' and ')} (from the provider's developer console) with "basin secrets set" or Settings, Secrets.`,
      { source_type: type, missing },
      'oauth_client_missing',
    );
  }
  return { provider: p as ResolvedProvider, credentials: { clientId: clientId!, clientSecret: clientSecret! } };
}
