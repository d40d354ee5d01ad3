import { declareRestSource, getPath, Type } from '@basin/sdk';

const RESOURCES = ['players_profiles', 'players_games', 'players_online_status'];
const MONTH = '^\\d{4}/(0[1-9]|1[0-2])$';

/** `YYYY/MM` of a cursor value (a game's end_time in unix seconds) or a `YYYY/MM` setting. */
function monthOf(v: string | number | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'string' && new RegExp(MONTH).test(v)) return v;
  const d = new Date(typeof v === 'number' ? v * 1000 : Date.parse(v));
  return Number.isNaN(d.getTime()) ? undefined : `${d.getUTCFullYear()}/${String(d.getUTCMonth() + 1).padStart(2, '0')}`;
}

/**
 * Chess.com Published-Data API (no auth) for the configured players: profiles, last-online
 * status and games from the monthly archives. Games are incremental per player by `end_time`: a
 * later sync reads only the archives from the month of the last game on (the current month grows).
 */
export default declareRestSource({
  type: 'chess',
  title: 'Chess.com',
  category: 'api',
  authKind: 'none',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      players: Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]{3,25}$' }), { minItems: 1, uniqueItems: true, description: 'Chess.com usernames' }),
      start_month: Type.Optional(Type.String({ pattern: MONTH, description: 'first archive month (YYYY/MM) of the first sync' })),
      base_url: Type.String({ pattern: '^https?://', default: 'https://api.chess.com/pub' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: RESOURCES,
  // Chess.com asks API clients to say who they are
  connection: (c) => ({ baseUrl: c.base_url, auth: { kind: 'none' }, headers: { 'user-agent': 'Basin (https://github.com/basin) chess source' } }),
  paginator: { type: 'none' },
  endpoints: [
    {
      name: 'players',
      hidden: true,
      async *read(run) {
        yield run.config.players.map((username) => ({ username: username.toLowerCase() }));
      },
    },
    { name: 'players_profiles', path: '/player/{username}', parent: { resource: 'players', field: 'username', as: 'username' }, primaryKey: ['player_id'] },
    {
      name: 'players_online_status',
      path: '/player/{username}',
      parent: { resource: 'players', field: 'username', as: 'username' },
      map: (r) => ({ player_id: r.player_id, last_online: r.last_online, status: r.status }),
      primaryKey: ['player_id'],
    },
    {
      name: 'players_games',
      parent: { resource: 'players', field: 'username', as: 'username' },
      primaryKey: ['url'],
      incremental: { cursorField: 'end_time', initialValue: (c) => c.start_month },
      async *read(run) {
        const user = String(run.parent!.__parentKey);
        const res = await run.client.get(`/player/${encodeURIComponent(user)}/games/archives`);
        const from = monthOf(run.cursor?.start);
        const archives = ((getPath(res.body, 'archives') as string[] | undefined) ?? []).filter((u) => !from || u.slice(-7) >= from);
        for (const url of archives) yield* run.pages(url, { dataSelector: 'games' });
      },
    },
  ],
});
