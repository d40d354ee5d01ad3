import {
  batchRecords,
  defineSource,
  IncrementalCursor,
  paginate,
  RestClient,
  Type,
  type CursorState,
  type ReadItem,
  type ResourceSpec,
  type SourceContext,
  type Static,
} from '@basin/sdk';

/**
 * An example third-party source: a weather-station network's REST API.
 *   GET /stations                                   → { stations: [...] }
 *   GET /stations/{id}/observations?since=&page=N   → { observations: [...], page, total_pages }
 * API key in the X-Api-Key header. Installed as its own npm package with
 * `"basin": { "kind": "source" }`, it shows up in Basin with no change to Basin itself.
 */
export const WeatherConfig = Type.Object(
  {
    base_url: Type.String({ pattern: '^https?://', default: 'https://api.weather-stations.example/v1', description: 'Root URL of the station API' }),
    api_key_env: Type.String({ minLength: 1, default: 'WEATHER_API_KEY', description: 'Environment variable holding the API key' }),
    stations: Type.Array(Type.String(), { default: [], description: 'Station ids to read; empty = every station' }),
    start_date: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}', description: 'First day of observations on the first sync' })),
  },
  { additionalProperties: false },
);
type WeatherConfig = Static<typeof WeatherConfig>;
type Ctx = SourceContext<WeatherConfig>;

interface Station {
  id: string;
  name: string;
  [k: string]: unknown;
}

function client(ctx: Ctx): RestClient {
  return new RestClient({
    baseUrl: ctx.config.base_url,
    auth: { kind: 'api_key', name: 'X-Api-Key', location: 'header', keyEnv: ctx.config.api_key_env },
    secret: (n) => ctx.secret(n),
    fetch: ctx.fetch,
    signal: ctx.signal,
    log: ctx.log,
  });
}

async function stations(ctx: Ctx, api: RestClient): Promise<Station[]> {
  const res = await api.get<{ stations: Station[] }>('stations');
  const all = res.body.stations ?? [];
  const wanted = ctx.config.stations;
  return wanted.length ? all.filter((s) => wanted.includes(s.id)) : all;
}

/** Observations of every station, incremental per station on `observed_at`. */
async function* observations(ctx: Ctx, api: RestClient, list: Station[], state: Record<string, unknown> | undefined): AsyncGenerator<ReadItem> {
  const previous = (state?.stations ?? {}) as Record<string, CursorState>;
  const next: Record<string, CursorState> = { ...previous };
  for (const station of list) {
    const cursor = new IncrementalCursor({ field: 'observed_at', param: 'since', primaryKey: ['station_id', 'observed_at'] }, previous[station.id] as unknown as Record<string, unknown>, {
      ...ctx.options,
      startDate: ctx.options.startDate ?? ctx.config.start_date,
    });
    async function* pages() {
      const paged = paginate(api, `stations/${encodeURIComponent(station.id)}/observations`, {
        params: { per_page: 500, ...cursor.params() },
        paginator: { type: 'page_number', total_pages_path: 'total_pages' },
        dataSelector: 'observations',
      });
      for await (const p of paged) yield cursor.filter(p.records.map((r) => ({ station_id: station.id, ...r })));
    }
    for await (const batch of batchRecords(pages(), 5000)) yield { kind: 'records', resource: 'observations', records: batch };
    const s = cursor.state();
    if (s) next[station.id] = s;
  }
  // committed only after every station's rows above are loaded
  yield { kind: 'state', resource: 'observations', state: { stations: next } };
}

const RESOURCES: ResourceSpec[] = [
  {
    name: 'stations',
    primaryKey: ['id'],
    writeDisposition: 'replace',
    columns: [
      { name: 'id', type: 'VARCHAR', nullable: false },
      { name: 'name', type: 'VARCHAR' },
      { name: 'latitude', type: 'DOUBLE' },
      { name: 'longitude', type: 'DOUBLE' },
      { name: 'elevation_m', type: 'DOUBLE' },
    ],
  },
  {
    name: 'observations',
    primaryKey: ['station_id', 'observed_at'],
    cursorField: 'observed_at',
    writeDisposition: 'merge',
    columns: [
      { name: 'station_id', type: 'VARCHAR', nullable: false },
      { name: 'observed_at', type: 'TIMESTAMP', nullable: false },
      { name: 'temperature_c', type: 'DOUBLE' },
      { name: 'humidity_pct', type: 'DOUBLE' },
      { name: 'wind_kph', type: 'DOUBLE' },
      { name: 'precipitation_mm', type: 'DOUBLE' },
    ],
  },
];

export default defineSource({
  type: 'weather_station',
  title: 'Weather stations (example)',
  category: 'api',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  configSchema: WeatherConfig,
  capabilities: { incremental: true, dateRange: true, customQueries: false },
  resources: RESOURCES,
  defaultResources: ['stations', 'observations'],
  docs: 'Example source: stations and their observations from a weather-station REST API (API key in X-Api-Key).',
  async check(ctx) {
    try {
      const list = await stations(ctx, client(ctx));
      const missing = ctx.config.stations.filter((id) => !list.some((s) => s.id === id));
      if (missing.length) return { ok: false, message: `Unknown station id(s): ${missing.join(', ')}.` };
      return { ok: true, message: `${list.length} station(s) reachable.` };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  },
  async discover() {
    return RESOURCES;
  },
  async *read(ctx, resources, state) {
    const api = client(ctx);
    const names = new Set((resources.length ? resources : RESOURCES).map((r) => r.name));
    const list = await stations(ctx, api);
    if (names.has('stations') && list.length) yield { kind: 'records', resource: 'stations', records: list };
    if (names.has('observations')) yield* observations(ctx, api, list, state.observations);
  },
});
