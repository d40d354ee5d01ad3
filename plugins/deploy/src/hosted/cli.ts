import path from 'node:path';
import { CliExit, EXIT, requireProjectConfig, type BasinConfig, type CliContext } from '@basin/core';
import { DigitalOceanClient, ProviderError } from './do-client.js';
import { provision, teardown, type HostedState } from './provision.js';

export const HOSTED_PROVIDER = 'digitalocean';

/** the provider API client from DIGITALOCEAN_TOKEN (and DIGITALOCEAN_API_URL, for a compatible endpoint) */
export function hostedClient(config: Pick<BasinConfig, 'env'>): DigitalOceanClient {
  const token = config.env('DIGITALOCEAN_TOKEN');
  if (!token) throw new CliExit(EXIT.failure, 'basin: DIGITALOCEAN_TOKEN is not set; create an API token with write scope and add it: printf %s "$TOKEN" | basin secrets set DIGITALOCEAN_TOKEN');
  return new DigitalOceanClient(token, config.env('DIGITALOCEAN_API_URL') ?? 'https://api.digitalocean.com');
}

export const asCliError = (e: unknown): never => {
  if (e instanceof ProviderError) throw new CliExit(EXIT.failure, `basin: ${e.message}`);
  throw e;
};

/** `basin cloud provision|destroy`: the hosted provider's server, firewall and SSH key (cloud.yml records their ids) */
export function registerCloudCommands(cli: CliContext): void {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  const load = async (project: string) => {
    const projectDir = path.resolve(project);
    const config = await requireProjectConfig(projectDir);
    const cloud = config.file<HostedState & { provider: string }>('cloud');
    if (cloud.provider !== HOSTED_PROVIDER) throw new CliExit(EXIT.failure, `basin cloud: provider is "${cloud.provider}"; provisioning is for provider ${HOSTED_PROVIDER} (byos servers are yours to create).`);
    return { projectDir, cloud, client: hostedClient(config), port: config.platform.port, name: config.project.name };
  };
  const cloud = cli.program.command('cloud').description(`Provision or tear down the hosted server (${HOSTED_PROVIDER}) in .basin/cloud.yml`);
  cloud
    .command('provision')
    .option('--project <dir>', 'project directory', process.cwd())
    .description('Create the SSH key, server and firewall that cloud.yml does not record yet, and wait until the server is up')
    .action(async (o: { project: string }) => {
      const c = await load(o.project);
      const s = await provision({ projectDir: c.projectDir, projectName: c.name, state: c.cloud, client: c.client, port: c.port, log: out }).catch(asCliError);
      out(`Provisioned: server ${s.server_id} at ${s.server_ip}. Deploy with: basin deploy`);
    });
  cloud
    .command('destroy')
    .option('--project <dir>', 'project directory', process.cwd())
    .option('--yes', 'confirm: the server and everything on it is deleted')
    .description('Delete the firewall, server and SSH key that cloud.yml records (back up first: basin backup)')
    .action(async (o: { project: string; yes?: boolean }) => {
      if (!o.yes) throw new CliExit(EXIT.failure, 'basin cloud destroy deletes the server and its data; run "basin backup" first, then repeat with --yes.');
      const c = await load(o.project);
      await teardown({ projectDir: c.projectDir, state: c.cloud, client: c.client, log: out }).catch(asCliError);
      out('Torn down.');
    });
}
