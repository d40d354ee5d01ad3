// Provisioning and teardown on the hosted provider through its HTTP API, against a local fake of the
// DigitalOcean endpoints used: SSH key, server, firewall, ids recorded in cloud.yml as they appear
// (comments kept), a second run resumes without duplicates, teardown deletes all and clears cloud.yml.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { makeProject } from '@basin/test';
import { DigitalOceanClient, provision } from '../src/index.js';
import { startFakeDigitalOcean, type FakeDigitalOcean } from './fake-digitalocean.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
function basin(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--conditions=development', '--import', 'tsx', path.join(root, 'bin/basin.mjs'), ...args], { cwd: root, env: { ...process.env, BASIN_DEV: '1' } });
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    child.stderr.on('data', (d) => (out += String(d)));
    child.on('close', (code) => resolve({ code: code ?? 1, out }));
  });
}

describe('hosted provider (DigitalOcean API)', () => {
  let fake: FakeDigitalOcean;
  let dir: string;
  const cloudFile = () => path.join(dir, '.basin/cloud.yml');

  before(async () => {
    fake = await startFakeDigitalOcean();
    dir = makeProject({
      '.basin/cloud.yml': '# our production server\nprovider: digitalocean\nregion: fra1\nsize: s-2vcpu-4gb\n',
      '.env': `DIGITALOCEAN_TOKEN=${fake.token}\nDIGITALOCEAN_API_URL=${fake.url}\n`,
    });
  });
  after(() => fake?.close());

  test('provision creates the key, server and firewall, records their ids, and resumes without duplicates', async () => {
    const lines: string[] = [];
    const client = new DigitalOceanClient(fake.token, fake.url);
    const state = { region: 'fra1', size: 's-2vcpu-4gb', ssh_key_path: '.basin/cloud_key' };
    const s = await provision({ projectDir: dir, projectName: 'Test Project', state, client, port: 8800, log: (l) => lines.push(l), sleep: async () => {} });
    assert.equal(s.server_ip, '203.0.113.10');
    assert.ok(fs.existsSync(path.join(dir, '.basin/cloud_key')) && fs.existsSync(path.join(dir, '.basin/cloud_key.pub')));
    const [key] = [...fake.keys.values()];
    assert.equal(key!.public_key, fs.readFileSync(path.join(dir, '.basin/cloud_key.pub'), 'utf8').trim());
    const [droplet] = [...fake.droplets.values()];
    assert.deepEqual([droplet!.name, droplet!.region, droplet!.size, droplet!.image, droplet!.ssh_keys], ['basin-test-project', 'fra1', 's-2vcpu-4gb', 'debian-12-x64', [key!.id]]);
    assert.match(droplet!.user_data, /^#cloud-config/);
    const [fw] = [...fake.firewalls.values()];
    assert.deepEqual(fw!.droplet_ids, [droplet!.id]);
    assert.deepEqual(fw!.inbound_rules.map((r) => r.ports), ['22', '80', '443', '8800']);

    const text = fs.readFileSync(cloudFile(), 'utf8');
    assert.ok(text.startsWith('# our production server\n'), 'comments kept');
    const yml = parse(text);
    assert.deepEqual([yml.server_id, yml.server_ip, yml.firewall_id, yml.ssh_key_id], [droplet!.id, '203.0.113.10', fw!.id, key!.id]);

    // a second run with the recorded state creates nothing new
    const before = fake.requests.length;
    await provision({ projectDir: dir, projectName: 'Test Project', state: { ...state, ...yml }, client, port: 8800, log: () => {}, sleep: async () => {} });
    assert.deepEqual(fake.requests.slice(before), [`GET /v2/droplets/${droplet!.id}`]);
    assert.equal(fake.keys.size + fake.droplets.size + fake.firewalls.size, 3);
  });

  test('deploy --dry-run names the provisioning steps; a wrong token is refused without echoing it', async () => {
    const dry = await basin(['deploy', '--dry-run', '--project', dir]);
    assert.equal(dry.code, 0, dry.out);
    assert.match(dry.out, /\[provision\] SSH key \d+ is registered/);
    assert.match(dry.out, /\[provision\] server \d+ exists/);
    assert.ok(!dry.out.includes(fake.token));

    const other = makeProject({ '.basin/cloud.yml': 'provider: digitalocean\n', '.env': `DIGITALOCEAN_TOKEN=dop_v1_wrong-token-value\nDIGITALOCEAN_API_URL=${fake.url}\n` });
    const r = await basin(['cloud', 'provision', '--project', other]);
    assert.equal(r.code, 1);
    assert.match(r.out, /401 unauthorized.*DIGITALOCEAN_TOKEN/s);
    assert.ok(!r.out.includes('wrong-token-value'));
  });

  test('destroy needs --yes, then deletes firewall, server and key and clears cloud.yml', async () => {
    const refused = await basin(['cloud', 'destroy', '--project', dir]);
    assert.equal(refused.code, 1);
    assert.match(refused.out, /--yes/);
    assert.equal(fake.droplets.size, 1);
    const r = await basin(['cloud', 'destroy', '--yes', '--project', dir]);
    assert.equal(r.code, 0, r.out);
    assert.equal(fake.keys.size + fake.droplets.size + fake.firewalls.size, 0);
    const yml = parse(fs.readFileSync(cloudFile(), 'utf8'));
    for (const k of ['server_id', 'server_ip', 'firewall_id', 'ssh_key_id']) assert.equal(yml[k], undefined, k);
    assert.equal(yml.region, 'fra1');
    assert.deepEqual(fake.requests.filter((q) => q.startsWith('DELETE')).map((q) => q.split('/')[2]), ['firewalls', 'droplets', 'account']);
  });
});
