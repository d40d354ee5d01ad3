import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['players_profiles', 'players_games', 'players_online_status'];

/** Chess.com public data (SPEC: player profiles and games, no auth, no fields). Manifest only. */
export default declareSource({
  type: 'chess',
  title: 'Chess.com',
  category: 'api',
  authKind: 'none',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object({}, { additionalProperties: false, default: {} }),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name })),
  defaultResources: RESOURCES,
});
