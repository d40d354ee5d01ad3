import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { writeFileAtomic } from '@basin/core';
import { DigitalOceanClient, ProviderError, type Droplet, type FirewallRule } from './do-client.js';

/** cloud.yml fields provisioning reads and writes back */
export interface HostedState {
  server_id?: number;
  server_ip?: string;
  firewall_id?: string;
  ssh_key_id?: number;
  region: string;
  size: string;
  ssh_key_path: string;
  domain?: string;
}

export const SERVER_IMAGE = 'debian-12-x64';
const EVERYWHERE = ['0.0.0.0/0', '::/0'];

/** first boot: Node 22 (Debian's is older), curl and git, so `basin deploy` can run the setup script */
export const USER_DATA = `#cloud-config
package_update: true
packages: [curl, git, ca-certificates]
runcmd:
  - curl -fsSL https://deb.nodesource.com/setup_22.x | bash -
  - apt-get install -y nodejs
`;

/** writes fields into cloud.yml keeping its comments and order */
export function updateCloudFile(projectDir: string, set: Record<string, unknown>): void {
  const file = path.join(projectDir, '.basin', 'cloud.yml');
  const doc = parseDocument(fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  if (!doc.contents) doc.contents = doc.createNode({}) as never;
  for (const [k, v] of Object.entries(set)) {
    if (v === undefined) doc.delete(k);
    else doc.set(k, v);
  }
  writeFileAtomic(file, doc.toString());
}

export interface ProvisionOptions {
  projectDir: string;
  projectName: string;
  state: HostedState;
  client: DigitalOceanClient;
  /** Basin's port, opened in the firewall when no domain (and so no proxy on 443) is set */
  port: number;
  log: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
  /** polls of the droplet before giving up */
  maxPolls?: number;
}

/**
 * Creates what is missing, in order, and records each id in cloud.yml as soon as it exists (so a
 * failure half-way is resumed or torn down, never leaked): an SSH key pair at ssh_key_path, the key at
 * the provider, the server (waiting until it is active with a public IPv4), and a firewall allowing
 * SSH, HTTP(S) and, without a domain, Basin's port.
 */
export async function provision(o: ProvisionOptions): Promise<HostedState> {
  const s = { ...o.state };
  const sleep = o.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const keyPath = path.resolve(o.projectDir, s.ssh_key_path);
  if (!fs.existsSync(keyPath)) {
    fs.mkdirSync(path.dirname(keyPath), { recursive: true });
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', `basin-${o.projectName}`, '-f', keyPath]);
    o.log(`created the SSH key ${s.ssh_key_path}`);
  }
  const name = `basin-${o.projectName.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`.slice(0, 60);
  if (!s.ssh_key_id) {
    const key = await o.client.createKey(name, fs.readFileSync(`${keyPath}.pub`, 'utf8').trim());
    s.ssh_key_id = key.id;
    updateCloudFile(o.projectDir, { ssh_key_id: key.id });
    o.log(`registered the SSH key (id ${key.id}, ${key.fingerprint})`);
  }
  if (!s.server_id) {
    const d = await o.client.createDroplet({ name, region: s.region, size: s.size, image: SERVER_IMAGE, ssh_keys: [s.ssh_key_id], user_data: USER_DATA, tags: ['basin'] });
    s.server_id = d.id;
    updateCloudFile(o.projectDir, { server_id: d.id });
    o.log(`created the server ${name} (id ${d.id}, ${s.size} in ${s.region})`);
  }
  let droplet: Droplet | null = null;
  for (let i = 0; i < (o.maxPolls ?? 120); i++) {
    droplet = await o.client.getDroplet(s.server_id);
    if (droplet.status === 'active' && droplet.networks.v4.some((n) => n.type === 'public')) break;
    if (i === 0) o.log('waiting for the server to boot...');
    await sleep(5000);
  }
  const ip = droplet?.networks.v4.find((n) => n.type === 'public')?.ip_address;
  if (!ip || droplet?.status !== 'active') throw new ProviderError(0, 'timeout', `Server ${s.server_id} did not become active with a public IP in time; run basin deploy again to resume.`);
  s.server_ip = ip;
  updateCloudFile(o.projectDir, { server_ip: ip });
  if (!s.firewall_id) {
    const ports = ['22', '80', '443', ...(s.domain ? [] : [String(o.port)])];
    const inbound: FirewallRule[] = ports.map((p) => ({ protocol: 'tcp', ports: p, sources: { addresses: EVERYWHERE } }));
    const outbound: FirewallRule[] = (['tcp', 'udp'] as const).map((protocol) => ({ protocol, ports: 'all', destinations: { addresses: EVERYWHERE } }));
    const fw = await o.client.createFirewall({ name, inbound_rules: inbound, outbound_rules: outbound, droplet_ids: [s.server_id] });
    s.firewall_id = fw.id;
    updateCloudFile(o.projectDir, { firewall_id: fw.id });
    o.log(`created the firewall (id ${fw.id}; open: ${ports.join(', ')})`);
  }
  o.log(`server ready at ${ip}`);
  return s;
}

/** Deletes the firewall, the server and the SSH key (each only if recorded), clearing cloud.yml as it goes; a 404 counts as gone. */
export async function teardown(o: { projectDir: string; state: HostedState; client: DigitalOceanClient; log: (l: string) => void }): Promise<void> {
  const gone = async (what: string, fn: () => Promise<void>) => {
    try {
      await fn();
      o.log(`deleted the ${what}`);
    } catch (e) {
      if (e instanceof ProviderError && e.status === 404) o.log(`the ${what} was already gone`);
      else throw e;
    }
  };
  const s = o.state;
  if (s.firewall_id) {
    await gone(`firewall ${s.firewall_id}`, () => o.client.deleteFirewall(s.firewall_id!));
    updateCloudFile(o.projectDir, { firewall_id: undefined });
  }
  if (s.server_id) {
    await gone(`server ${s.server_id}`, () => o.client.deleteDroplet(s.server_id!));
    updateCloudFile(o.projectDir, { server_id: undefined, server_ip: undefined });
  }
  if (s.ssh_key_id) {
    await gone(`SSH key ${s.ssh_key_id}`, () => o.client.deleteKey(s.ssh_key_id!));
    updateCloudFile(o.projectDir, { ssh_key_id: undefined });
  }
}
