import { declareSource, Type } from '@basin/sdk';

const DATE = '^\\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$';
const RESOURCES = ['channels', 'users', 'messages'];

/** Slack (SPEC: team chat). Manifest only; the runtime comes in a later release. */
export default declareSource({
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
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
