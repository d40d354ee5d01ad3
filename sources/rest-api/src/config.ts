import { Type, type ConfigProblem, type PaginatorSpec, type Static } from '@basin/sdk';

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

const PaginatorType = Type.Union(
  ['auto', 'none', 'page_number', 'offset', 'cursor', 'link_header', 'next_url'].map((t) => Type.Literal(t)),
);

/** `paginator:` a type name, or an object with the type and its settings. */
const Paginator = Type.Union([
  PaginatorType,
  Type.Object(
    {
      type: PaginatorType,
      page_param: Type.Optional(Type.String()),
      start_page: Type.Optional(Type.Integer({ minimum: 0 })),
      page_size_param: Type.Optional(Type.String()),
      page_size: Type.Optional(Type.Integer({ minimum: 1 })),
      total_pages_path: Type.Optional(Type.String()),
      offset_param: Type.Optional(Type.String()),
      limit_param: Type.Optional(Type.String()),
      limit: Type.Optional(Type.Integer({ minimum: 1 })),
      total_path: Type.Optional(Type.String()),
      cursor_path: Type.Optional(Type.String()),
      cursor_param: Type.Optional(Type.String()),
      next_url_path: Type.Optional(Type.String()),
    },
    { additionalProperties: false },
  ),
]);

export const Endpoint = Type.Object(
  {
    path: Type.String({ minLength: 1, description: 'Path relative to base_url', examples: ['/v1/invoices'] }),
    params: Type.Optional(Type.Record(Type.String(), Scalar, { description: 'Query parameters sent with every request' })),
    // Basin additions (optional): see docs/sdk.md "rest_api"
    name: Type.Optional(Type.String({ pattern: '^[A-Za-z_][A-Za-z0-9_]*$', description: 'Table name (default: derived from path)' })),
    data_selector: Type.Optional(Type.String({ description: 'Dotted path of the records in a response (default: detected)' })),
    paginator: Type.Optional(Paginator),
    primary_key: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String(), { minItems: 1 })])),
    cursor_field: Type.Optional(Type.String({ description: 'Record field used as the incremental cursor' })),
    cursor_param: Type.Optional(Type.String({ description: 'Query parameter that receives the last cursor value' })),
    initial_value: Type.Optional(Type.Union([Type.String(), Type.Number()])),
    end_param: Type.Optional(Type.String({ description: 'Query parameter that receives the end date of a date-range sync' })),
  },
  { additionalProperties: false },
);

export const AuthType = Type.Union(['bearer', 'api_key', 'basic', 'oauth2_client_credentials', 'custom_header', 'none'].map((t) => Type.Literal(t)));

export const RestApiConfig = Type.Object(
  {
    base_url: Type.String({ pattern: '^https?://', description: 'Root URL of the API', examples: ['https://api.example.com'] }),
    endpoints: Type.Array(Endpoint, { minItems: 1 }),
    auth_type: Type.Union(AuthType.anyOf, { default: 'bearer' }),
    // `x-when` / `x-required`: the wizard asks an auth setting only for the auth types that use it (REQUIRED below)
    auth_token_env: Type.Optional(Type.String({ minLength: 1, description: 'Environment variable with the token (bearer), key (api_key) or header value (custom_header)', 'x-when': { auth_type: ['bearer', 'api_key', 'custom_header'] }, 'x-required': true })),
    api_key_name: Type.Optional(Type.String({ minLength: 1, examples: ['X-API-Key'], 'x-when': { auth_type: ['api_key'] }, 'x-required': true })),
    api_key_location: Type.Union([Type.Literal('header'), Type.Literal('query')], { default: 'header', 'x-when': { auth_type: ['api_key'] } }),
    basic_username_env: Type.Optional(Type.String({ minLength: 1, 'x-when': { auth_type: ['basic'] }, 'x-required': true })),
    basic_password_env: Type.Optional(Type.String({ minLength: 1, 'x-when': { auth_type: ['basic'] }, 'x-required': true })),
    access_token_url: Type.Optional(Type.String({ pattern: '^https?://', examples: ['https://auth.example.com/oauth/token'], 'x-when': { auth_type: ['oauth2_client_credentials'] }, 'x-required': true })),
    client_id_env: Type.Optional(Type.String({ minLength: 1, 'x-when': { auth_type: ['oauth2_client_credentials'] }, 'x-required': true })),
    client_secret_env: Type.Optional(Type.String({ minLength: 1, 'x-when': { auth_type: ['oauth2_client_credentials'] }, 'x-required': true })),
    auth_header_name: Type.Optional(Type.String({ minLength: 1, examples: ['X-Auth-Token'], 'x-when': { auth_type: ['custom_header'] }, 'x-required': true })),
    headers: Type.Optional(Type.Record(Type.String(), Type.String())),
    // Basin additions (optional)
    paginator: Type.Optional(Paginator),
    data_selector: Type.Optional(Type.String()),
    scope: Type.Optional(Type.String({ description: 'OAuth2 scope for the client-credentials grant', 'x-when': { auth_type: ['oauth2_client_credentials'] } })),
    max_retries: Type.Integer({ minimum: 0, maximum: 10, default: 5, description: 'Retries of a request after a 5xx, 429 or network error' }),
    batch_size: Type.Integer({ minimum: 1, maximum: 100_000, default: 5000, description: 'Rows per batch handed to the loader' }),
  },
  { additionalProperties: false },
);
export type RestApiConfig = Static<typeof RestApiConfig>;
export type EndpointConfig = Static<typeof Endpoint>;

/** Table name of an endpoint: its `name`, else its path in snake case (`/v1/users/{id}/posts` → `v1_users_posts`). */
export function endpointName(e: EndpointConfig): string {
  if (e.name) return e.name;
  const base = e.path
    .split('?')[0]!
    .replace(/\{[^}]*\}/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
  const name = base || 'data';
  return /^[a-z_]/.test(name) ? name : `_${name}`;
}

export function paginatorSpec(p: EndpointConfig['paginator'] | RestApiConfig['paginator']): PaginatorSpec {
  if (!p) return { type: 'auto' };
  return (typeof p === 'string' ? { type: p } : p) as PaginatorSpec;
}

const REQUIRED: Record<string, Array<keyof RestApiConfig>> = {
  bearer: ['auth_token_env'],
  api_key: ['auth_token_env', 'api_key_name'],
  basic: ['basic_username_env', 'basic_password_env'],
  oauth2_client_credentials: ['access_token_url', 'client_id_env', 'client_secret_env'],
  custom_header: ['auth_header_name', 'auth_token_env'],
  none: [],
};

/** Rules across fields: each auth_type's required settings, unique table names, cursor settings. */
export function validateRestApiConfig(c: RestApiConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const f of REQUIRED[c.auth_type] ?? []) {
    if (!c[f]) problems.push({ path: `/${f}`, message: `auth_type ${c.auth_type} needs ${f}` });
  }
  const seen = new Map<string, number>();
  c.endpoints.forEach((e, i) => {
    const n = endpointName(e);
    if (seen.has(n)) problems.push({ path: `/endpoints/${i}/name`, message: `endpoints ${seen.get(n)} and ${i} both load into "${n}"; give one a name` });
    seen.set(n, i);
    if (e.cursor_param && !e.cursor_field) problems.push({ path: `/endpoints/${i}/cursor_field`, message: 'cursor_param needs cursor_field (the record field whose last value is sent)' });
  });
  return problems;
}
