// A local fake of the few DigitalOcean API v2 endpoints Basin uses, written from the public API
// reference: bearer auth, `{id, message}` errors, 201 for keys, 202 for droplets and firewalls, 204 for
// deletes, a droplet that is `new` for a few polls and then `active` with a public IPv4.
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeDigitalOcean {
  url: string;
  token: string;
  keys: Map<number, { id: number; name: string; public_key: string; fingerprint: string }>;
  droplets: Map<number, { id: number; name: string; region: string; size: string; image: string; ssh_keys: number[]; user_data: string; polls: number }>;
  firewalls: Map<string, { id: string; name: string; inbound_rules: any[]; outbound_rules: any[]; droplet_ids: number[] }>;
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeDigitalOcean(token = 'dop_v1_fake-token-for-tests'): Promise<FakeDigitalOcean> {
  let nextId = 1000;
  const fake: Omit<FakeDigitalOcean, 'url' | 'close'> = { token, keys: new Map(), droplets: new Map(), firewalls: new Map(), requests: [] };
  const send = (res: http.ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, body === undefined ? {} : { 'content-type': 'application/json' });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const error = (res: http.ServerResponse, status: number, id: string, message: string) => send(res, status, { id, message, request_id: crypto.randomUUID() });
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url!, 'http://x');
    fake.requests.push(`${req.method} ${url.pathname}`);
    if (req.headers.authorization !== `Bearer ${token}`) return error(res, 401, 'unauthorized', 'Unable to authenticate you');
    let body: any = {};
    if (chunks.length) {
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return error(res, 400, 'bad_request', 'unparseable JSON');
      }
    }
    const m = (re: RegExp) => re.exec(url.pathname);
    let g: RegExpExecArray | null;
    if (req.method === 'POST' && url.pathname === '/v2/account/keys') {
      if (typeof body.name !== 'string' || typeof body.public_key !== 'string' || !/^ssh-(ed25519|rsa) /.test(body.public_key)) return error(res, 422, 'unprocessable_entity', 'Key invalid, key should be of the format `type key [comment]`');
      const id = nextId++;
      const fingerprint = crypto.createHash('md5').update(body.public_key).digest('hex').match(/../g)!.join(':');
      fake.keys.set(id, { id, name: body.name, public_key: body.public_key, fingerprint });
      return send(res, 201, { ssh_key: fake.keys.get(id) });
    }
    if (req.method === 'DELETE' && (g = m(/^\/v2\/account\/keys\/(\d+)$/))) {
      if (!fake.keys.delete(Number(g[1]))) return error(res, 404, 'not_found', 'The resource you were accessing could not be found.');
      return send(res, 204);
    }
    if (req.method === 'POST' && url.pathname === '/v2/droplets') {
      for (const f of ['name', 'region', 'size', 'image']) if (typeof body[f] !== 'string' || !body[f]) return error(res, 422, 'unprocessable_entity', `${f} is required`);
      if (!Array.isArray(body.ssh_keys) || body.ssh_keys.some((k: number) => !fake.keys.has(Number(k)))) return error(res, 422, 'unprocessable_entity', 'ssh_keys must name keys of this account');
      const id = nextId++;
      fake.droplets.set(id, { id, name: body.name, region: body.region, size: body.size, image: body.image, ssh_keys: body.ssh_keys, user_data: body.user_data ?? '', polls: 0 });
      return send(res, 202, { droplet: { id, name: body.name, status: 'new', networks: { v4: [], v6: [] } }, links: { actions: [{ id: nextId++, rel: 'create', href: `${url.origin}/v2/actions/${nextId}` }] } });
    }
    if ((g = m(/^\/v2\/droplets\/(\d+)$/))) {
      const d = fake.droplets.get(Number(g[1]));
      if (!d) return error(res, 404, 'not_found', 'The resource you were accessing could not be found.');
      if (req.method === 'DELETE') {
        fake.droplets.delete(d.id);
        for (const fw of fake.firewalls.values()) fw.droplet_ids = fw.droplet_ids.filter((x) => x !== d.id);
        return send(res, 204);
      }
      d.polls++;
      const active = d.polls > 2;
      return send(res, 200, {
        droplet: { id: d.id, name: d.name, status: active ? 'active' : 'new', networks: { v4: active ? [{ ip_address: '10.10.0.5', type: 'private' }, { ip_address: '203.0.113.10', type: 'public' }] : [], v6: [] } },
      });
    }
    if (req.method === 'POST' && url.pathname === '/v2/firewalls') {
      if (typeof body.name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9.-]*$/.test(body.name)) return error(res, 422, 'unprocessable_entity', 'name must begin with an alphanumeric character');
      if (!(body.inbound_rules?.length || body.outbound_rules?.length)) return error(res, 422, 'unprocessable_entity', 'must contain at least one inbound or outbound rule');
      if (!(body.droplet_ids ?? []).every((d: number) => fake.droplets.has(d))) return error(res, 422, 'unprocessable_entity', 'unknown droplet');
      const id = crypto.randomUUID();
      fake.firewalls.set(id, { id, name: body.name, inbound_rules: body.inbound_rules ?? [], outbound_rules: body.outbound_rules ?? [], droplet_ids: body.droplet_ids ?? [] });
      return send(res, 202, { firewall: { ...fake.firewalls.get(id), status: 'waiting', created_at: new Date().toISOString(), pending_changes: [] } });
    }
    if (req.method === 'DELETE' && (g = m(/^\/v2\/firewalls\/([0-9a-f-]+)$/))) {
      if (!fake.firewalls.delete(g[1]!)) return error(res, 404, 'not_found', 'The resource you were accessing could not be found.');
      return send(res, 204);
    }
    return error(res, 404, 'not_found', 'The resource you were accessing could not be found.');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { ...fake, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}
