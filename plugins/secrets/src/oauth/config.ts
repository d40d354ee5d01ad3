import { Type, type Static } from '@sinclair/typebox';

const ProviderOverride = Type.Object(
  {
    authorization_url: Type.Optional(Type.String({ format: 'uri' })),
    token_url: Type.Optional(Type.String({ format: 'uri' })),
    userinfo_url: Type.Optional(Type.String({ format: 'uri' })),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    client_id_env: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
    client_secret_env: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$' })),
    token_auth: Type.Optional(Type.Union([Type.Literal('client_secret_post'), Type.Literal('client_secret_basic')])),
  },
  { additionalProperties: false },
);

/**
 * `oauth` section of project.yml (provider OAuth for sources). `public_url` is the address browsers and
 * providers reach this server at; connecting is allowed only when it is set (here or BASIN_PUBLIC_URL).
 */
export const OAuthSection = Type.Object(
  {
    public_url: Type.Optional(Type.String({ format: 'uri', pattern: '^https?://' })),
    /** a token is refreshed when it has less than this left */
    refresh_margin_seconds: Type.Integer({ minimum: 0, maximum: 3600, default: 300 }),
    /** how long a started connection may take before its state expires */
    state_ttl_seconds: Type.Integer({ minimum: 60, maximum: 3600, default: 600 }),
    /** per source type: overrides of the endpoints and client variables in the source's manifest */
    providers: Type.Record(Type.String(), ProviderOverride, { default: {} }),
  },
  { additionalProperties: false, default: {} },
);
export type OAuthSection = Static<typeof OAuthSection>;
