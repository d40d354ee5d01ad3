import { declareRestSource, Type } from '@basin/sdk';

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const RESOURCES = ['channels', 'users', 'messages'];
const AUTH_ERRORS = new Set(['not_authed', 'invalid_auth', 'account_inactive', 'token_revoked', 'token_expired', 'no_permission', 'missing_scope']);

/** Slack's `oldest` is a message timestamp (`1712345678.000100`); a start date becomes one. */
const slackTs = (v: string | number) => (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}/.test(v) ? String(Math.floor(Date.parse(v) / 1000)) : String(v));

/**
 * Slack Web API with a bot or user token: channels (conversations.list), users (users.list) and
 * the messages of each channel (conversations.history), incremental per channel by `ts` with
 * `oldest`. Pages by `response_metadata.next_cursor`; Slack reports errors as `{"ok": false}`.
 */
export default declareRestSource({
  type: 'slack',
  title: 'Slack',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      access_token_env: Type.String({ minLength: 1, default: 'SLACK_ACCESS_TOKEN', description: 'name of the environment variable holding the bot/user token' }),
      selected_channels: Type.Array(Type.String({ minLength: 1 }), { default: [], uniqueItems: true, description: 'channel names; empty = all channels the token can read' }),
      start_date: Type.Optional(Type.String({ pattern: DATE })),
      base_url: Type.String({ pattern: '^https?://', default: 'https://slack.com/api', description: 'API root (a proxy, or a test server)' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  connection: (c) => ({ baseUrl: c.base_url, auth: { kind: 'bearer', tokenEnv: c.access_token_env, field: 'access_token_env' } }),
  paginator: { type: 'cursor', cursor_path: 'response_metadata.next_cursor', cursor_param: 'cursor' },
  responseError(body) {
    const b = body as { ok?: boolean; error?: string } | null;
    if (!b || b.ok !== false) return null;
    return { auth: AUTH_ERRORS.has(String(b.error)), message: String(b.error ?? 'unknown error') };
  },
  endpoints: [
    { name: 'channels', path: 'conversations.list', params: { limit: 200, types: 'public_channel,private_channel', exclude_archived: false }, dataSelector: 'channels', primaryKey: ['id'] },
    { name: 'users', path: 'users.list', params: { limit: 200 }, dataSelector: 'members', primaryKey: ['id'] },
    {
      name: 'messages',
      path: 'conversations.history',
      params: { limit: 200 },
      dataSelector: 'messages',
      parent: { resource: 'channels', field: 'id', as: 'channel_id', param: 'channel', filter: (ch, c) => c.selected_channels.length === 0 || c.selected_channels.includes(String(ch.name)) },
      primaryKey: ['channel_id', 'ts'],
      incremental: { cursorField: 'ts', param: 'oldest', format: slackTs, initialValue: (c) => c.start_date },
    },
  ],
});
