import { Type, type Static } from '@sinclair/typebox';

const Window = (requests: number, window_seconds: number) =>
  Type.Object(
    { requests: Type.Integer({ minimum: 1, default: requests }), window_seconds: Type.Integer({ minimum: 1, default: window_seconds }) },
    { additionalProperties: false, default: {} },
  );

/** `auth` section of project.yml (SPEC "auth section"), local defaults. */
export const AuthSection = Type.Object(
  {
    enabled: Type.Boolean({ default: true }),
    idle_timeout_minutes: Type.Integer({ minimum: 1, default: 1440 }),
    session_max_days: Type.Integer({ minimum: 1, default: 365 }),
    password_max_age_days: Type.Integer({ minimum: 0, default: 0 }),
    require_2fa: Type.Boolean({ default: false }),
    rate_limit: Type.Object(
      {
        enabled: Type.Boolean({ default: true }),
        login: Window(10, 60),
        api: Window(200, 60),
        trusted_proxies: Type.Array(Type.String(), { default: [] }),
      },
      { additionalProperties: false, default: {} },
    ),
    lockout: Type.Object(
      { max_attempts: Type.Integer({ minimum: 1, default: 5 }), lockout_minutes: Type.Integer({ minimum: 1, default: 15 }) },
      { additionalProperties: false, default: {} },
    ),
    oauth_providers: Type.Record(
      Type.String(),
      Type.Object(
        {
          client_id: Type.String(),
          client_secret: Type.String(),
          /** OpenID Connect issuer URL used for discovery (beyond SPEC: any OIDC provider works) */
          issuer: Type.Optional(Type.String()),
          display_name: Type.Optional(Type.String()),
          scopes: Type.Optional(Type.Array(Type.String())),
        },
        { additionalProperties: false },
      ),
      { default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);
export type AuthSection = Static<typeof AuthSection>;

/** Cloud deployments shorten sessions (SPEC: 60 minutes idle, 30 days absolute) unless set explicitly. */
export const CLOUD_SESSION_DEFAULTS = { idle_timeout_minutes: 60, session_max_days: 30 } as const;
