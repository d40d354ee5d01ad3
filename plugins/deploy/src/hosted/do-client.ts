/**
 * The part of DigitalOcean's public API v2 Basin uses (https://docs.digitalocean.com/reference/api/):
 * SSH keys (POST/DELETE /v2/account/keys), Droplets (POST /v2/droplets, GET/DELETE /v2/droplets/{id})
 * and Cloud Firewalls (POST/DELETE /v2/firewalls). Bearer token auth; errors are `{id, message}`.
 */
export class ProviderError extends Error {
  constructor(
    readonly status: number,
    readonly id: string,
    message: string,
  ) {
    super(message);
  }
}

export interface Droplet {
  id: number;
  name: string;
  status: 'new' | 'active' | 'off' | 'archive';
  networks: { v4: Array<{ ip_address: string; type: 'public' | 'private' }> };
}

export interface FirewallRule {
  protocol: 'tcp' | 'udp' | 'icmp';
  ports: string;
  sources?: { addresses: string[] };
  destinations?: { addresses: string[] };
}

export class DigitalOceanClient {
  constructor(
    private readonly token: string,
    private readonly baseUrl = 'https://api.digitalocean.com',
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let res: Response;
    try {
      res = await this.fetchImpl(`${this.baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: { authorization: `Bearer ${this.token}`, 'content-type': 'application/json', accept: 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(60_000),
      });
    } catch (e) {
      throw new ProviderError(0, 'unreachable', `The provider API at ${new URL(this.baseUrl).origin} is not reachable: ${(e as Error).message}`);
    }
    if (res.status === 204) return undefined as T;
    const json = (await res.json().catch(() => ({}))) as { id?: string; message?: string } & T;
    if (!res.ok) {
      const hint = res.status === 401 ? ' Check DIGITALOCEAN_TOKEN (a token with write scope).' : res.status === 429 ? ' The provider rate-limited the request; retry in a minute.' : '';
      throw new ProviderError(res.status, json.id ?? `http_${res.status}`, `${method} ${path} was refused (${res.status} ${json.id ?? ''}): ${json.message ?? 'no message'}.${hint}`);
    }
    return json;
  }

  async createKey(name: string, publicKey: string): Promise<{ id: number; fingerprint: string }> {
    return (await this.call<{ ssh_key: { id: number; fingerprint: string } }>('POST', '/v2/account/keys', { name, public_key: publicKey })).ssh_key;
  }

  deleteKey(id: number): Promise<void> {
    return this.call('DELETE', `/v2/account/keys/${id}`);
  }

  async createDroplet(d: { name: string; region: string; size: string; image: string; ssh_keys: number[]; user_data: string; tags: string[] }): Promise<Droplet> {
    return (await this.call<{ droplet: Droplet }>('POST', '/v2/droplets', { ...d, ipv6: false, monitoring: true })).droplet;
  }

  async getDroplet(id: number): Promise<Droplet> {
    return (await this.call<{ droplet: Droplet }>('GET', `/v2/droplets/${id}`)).droplet;
  }

  deleteDroplet(id: number): Promise<void> {
    return this.call('DELETE', `/v2/droplets/${id}`);
  }

  async createFirewall(f: { name: string; inbound_rules: FirewallRule[]; outbound_rules: FirewallRule[]; droplet_ids: number[] }): Promise<{ id: string }> {
    return (await this.call<{ firewall: { id: string } }>('POST', '/v2/firewalls', f)).firewall;
  }

  deleteFirewall(id: string): Promise<void> {
    return this.call('DELETE', `/v2/firewalls/${id}`);
  }
}
