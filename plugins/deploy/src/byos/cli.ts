import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CliExit, EXIT, isBasinError, requireProjectConfig, type CliContext } from '@basin/core';
import { DeployError, deploySteps, probe, type DeployTarget } from './plan.js';
import { asCliError, HOSTED_PROVIDER, hostedClient } from '../hosted/cli.js';
import { provision, type HostedState } from '../hosted/provision.js';

interface CloudFile extends HostedState {
  provider: string;
  server_ip?: string;
  domain?: string;
  ssh_key_path: string;
  ssh_user: string;
  ssh_port: number;
  remote_dir: string;
  deploy_branch: string;
}

/** the Basin install this command runs from: the nearest directory up whose package.json lists workspaces (src/byos/ or the bundled dist/) */
function findInstallRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj) && Array.isArray(JSON.parse(fs.readFileSync(pj, 'utf8')).workspaces)) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no Basin install above ${from}`);
  }
}
const installRoot = findInstallRoot(path.dirname(fileURLToPath(import.meta.url)));

/** `basin deploy` for provider byos: any SSH host (cloud.yml server_ip, ssh_user, ssh_port, ssh_key_path). */
export function registerDeployCommand(cli: CliContext): void {
  const out = (s: string): void => void cli.stdout.write(`${s}\n`);
  cli.program
    .command('deploy')
    .description('Deploy the project and this Basin release to the server in .basin/cloud.yml (provider byos: any SSH host)')
    .option('--dry-run', 'print every step and its command without running anything')
    .option('--host <host>', 'the server (default: cloud.yml server_ip)')
    .option('--reuse-install <dir>', 'a Basin install of this same release already on the server: link it instead of uploading the release and running setup there')
    .option('--project <dir>', 'project directory', process.cwd())
    .action(async (o: { dryRun?: boolean; host?: string; reuseInstall?: string; project: string }) => {
      const projectDir = path.resolve(o.project);
      // config only: a local server may hold the warehouse meanwhile
      const config = await requireProjectConfig(projectDir).catch((e) => {
        if (isBasinError(e)) throw new CliExit(EXIT.failure, `basin deploy: ${e.message}`);
        throw e;
      });
      let cloud: CloudFile;
      let port: number;
      let dbPath: string;
      let dataDir: string;
      let hosted: (() => Promise<HostedState>) | null = null;
      cloud = config.file<CloudFile>('cloud');
      port = config.platform.port;
      dbPath = config.platform.db_path;
      dataDir = config.platform.data_dir;
      if (cloud.provider === HOSTED_PROVIDER && !o.dryRun) {
        const client = hostedClient(config);
        const name = config.project.name;
        hosted = () => provision({ projectDir, projectName: name, state: cloud, client, port, log: (l) => out(`[provision] ${l}`) }).catch(asCliError);
      }
      if (cloud.provider !== 'byos' && cloud.provider !== HOSTED_PROVIDER) throw new CliExit(EXIT.failure, `basin deploy: unknown provider "${cloud.provider}"; use byos (any SSH host) or ${HOSTED_PROVIDER}.`);
      if (cloud.provider === HOSTED_PROVIDER) {
        if (o.dryRun) {
          out(`[provision] ${cloud.ssh_key_id ? `SSH key ${cloud.ssh_key_id} is registered` : `create ${cloud.ssh_key_path} if missing and register it (POST /v2/account/keys)`}`);
          out(`[provision] ${cloud.server_id ? `server ${cloud.server_id} exists` : `create the server (POST /v2/droplets: ${cloud.size} in ${cloud.region}) and wait until it is active`}`);
          out(`[provision] ${cloud.firewall_id ? `firewall ${cloud.firewall_id} exists` : 'create the firewall (POST /v2/firewalls: 22, 80, 443' + (cloud.domain ? ')' : `, ${port})`)}`);
        } else {
          const s = await hosted!();
          cloud = { ...cloud, ...s, ssh_user: 'root' };
        }
      }
      const host = o.host ?? cloud.server_ip ?? (o.dryRun && cloud.provider === HOSTED_PROVIDER ? '<new server>' : undefined);
      if (!host) throw new CliExit(EXIT.failure, 'basin deploy: no server; set server_ip in .basin/cloud.yml or pass --host.');
      const keyPath = path.resolve(projectDir, cloud.ssh_key_path);
      if (!o.dryRun && !fs.existsSync(keyPath)) throw new CliExit(EXIT.failure, `basin deploy: the SSH key ${cloud.ssh_key_path} does not exist; create one (ssh-keygen -t ed25519 -f ${cloud.ssh_key_path}) and add its .pub to the server's authorized_keys.`);
      const target: DeployTarget = {
        ssh: { host, user: cloud.ssh_user, port: cloud.ssh_port, keyPath, knownHosts: path.join(projectDir, '.basin', 'known_hosts') },
        projectDir,
        remoteDir: cloud.remote_dir,
        port,
        domain: cloud.domain ?? null,
        branch: cloud.deploy_branch,
        dbPath,
        dataDir,
        installRoot,
        reuseInstall: o.reuseInstall ?? null,
        dev: !!process.env.BASIN_DEV,
      };
      try {
        const facts = o.dryRun ? { systemd: true, firstDeploy: true } : await probe(target);
        const steps = deploySteps(target, facts);
        out(`${o.dryRun ? 'Dry run: would deploy' : 'Deploying'} ${projectDir} to ${target.ssh.user}@${host}:${target.remoteDir} (${facts.systemd ? 'systemd' : 'supervised process'}${target.domain ? `, https://${target.domain}` : ''})${o.dryRun ? '; on a host without systemd a supervised process replaces the unit' : ''}.`);
        let token: string | null = null;
        for (const [i, s] of steps.entries()) {
          out(`[${i + 1}/${steps.length}] ${s.title}`);
          if (o.dryRun) {
            out(`    $ ${s.command}`);
            continue;
          }
          const r = await s.run();
          if (typeof r === 'string') token = r;
        }
        if (o.dryRun) return out('Nothing was changed.');
        const base = target.domain ? `https://${target.domain}` : `http://${host}:${port}`;
        out(`Basin is running at ${base}/`);
        if (token) {
          out('One-time deploy token for the initial sync (shown once, valid 24 hours):');
          out(token);
          out(`Start it with: curl -X POST -H "X-Basin-Deploy-Token: <token>" ${base}/api/initial-sync/start`);
        }
      } catch (e) {
        if (e instanceof DeployError) throw new CliExit(EXIT.failure, `basin deploy: ${e.message}`);
        throw e;
      }
    });
}
