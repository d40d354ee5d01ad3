import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local stand-in for the weather-station API: hourly observations, paged, `since` inclusive. */
export class FakeStationApi {
  apiKey = 'wx-key-123456';
  stations = [
    { id: 'ber-01', name: 'Berlin Tempelhof', latitude: 52.47, longitude: 13.4, elevation_m: 48 },
    { id: 'muc-02', name: 'Munich Airport', latitude: 48.35, longitude: 11.79, elevation_m: 453 },
  ];
  observations = new Map<string, Array<Record<string, unknown>>>();
  requests: URL[] = [];
  url = '';
  private server = http.createServer((req, res) => this.handle(req, res));

  constructor(hours = 30) {
    for (const s of this.stations) this.observations.set(s.id, []);
    for (let h = 0; h < hours; h++) this.addHour();
  }

  /** appends one hourly observation to every station */
  addHour(): void {
    for (const s of this.stations) {
      const list = this.observations.get(s.id)!;
      const t = Date.UTC(2024, 5, 1) + list.length * 3_600_000;
      list.push({ observed_at: new Date(t).toISOString(), temperature_c: 15 + (list.length % 10), humidity_pct: 60, wind_kph: 12.5, precipitation_mm: 0 });
    }
  }

  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this.url;
  }

  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  private send(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const url = new URL(req.url!, 'http://x');
    this.requests.push(url);
    if (req.headers['x-api-key'] !== this.apiKey) return this.send(res, 401, { error: 'invalid api key' });
    if (url.pathname === '/v1/stations') return this.send(res, 200, { stations: this.stations });
    const m = /^\/v1\/stations\/([^/]+)\/observations$/.exec(url.pathname);
    const list = m ? this.observations.get(decodeURIComponent(m[1]!)) : undefined;
    if (!list) return this.send(res, 404, { error: 'no such station' });
    const since = url.searchParams.get('since');
    const rows = since ? list.filter((o) => String(o.observed_at) >= since) : list;
    const per = Number(url.searchParams.get('per_page') ?? 100);
    const page = Number(url.searchParams.get('page') ?? 1);
    this.send(res, 200, { observations: rows.slice((page - 1) * per, page * per), page, total_pages: Math.max(1, Math.ceil(rows.length / per)) });
  }
}
