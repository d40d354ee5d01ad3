import fs from 'node:fs';
import path from 'node:path';
import { existingSensitive, gitCommit, isGitRepo, projectExcludes, projectTar, releaseTar } from './archive.js';
import { remote, sq, type SshTarget } from './ssh.js';

/** Everything a byos deploy needs, resolved from cloud.yml, project.yml and the command line. */
export interface DeployTarget {
  ssh: SshTarget;
  projectDir: string;
  remoteDir: string;
  port: number;
  domain: string | null;
  branch: string;
  dbPath: string;
  dataDir: string;
  /** the Basin install this command runs from */
  installRoot: string;
  /** a Basin install already on the server at this path (same release): no upload, no setup run */
  reuseInstall: string | null;
  /** run the TypeScript sources (BASIN_DEV) as this command does, rather than the built dist */
  dev: boolean;
}

export interface Step {
  title: string;
  /** what runs, as a reader would type it (printed by --dry-run; holds no secret) */
  command: string;
  run(): Promise<string | void>;
}

export class DeployError extends Error {}

const unitName = 'basin.service';

function check(r: { code: number; stderr: string }, what: string): void {
  // the server's stderr can echo paths but never a secret: no secret is ever on a command line
  if (r.code !== 0) throw new DeployError(`${what} failed on the server (exit ${r.code}): ${r.stderr.trim().slice(-600)}`);
}

/**
 * The steps of `basin deploy` to any SSH host: upload the same Basin release and run its setup
 * script (or link an install already there), upload the project (the deploy branch in a git project;
 * the server's own warehouse, state and users are never overwritten), stop the old server, start
 * Basin under systemd (a unit file) or a supervised process, put Caddy in front when a domain is
 * set, wait for /api/status, issue the one-time deploy token on the first deploy, and journal it.
 */
export function deploySteps(t: DeployTarget, facts: { systemd: boolean; firstDeploy: boolean }): Step[] {
  const R = t.remoteDir;
  const rel = `${R}/release`;
  const proj = `${R}/project`;
  const git = isGitRepo(t.projectDir);
  const commit = git ? gitCommit(t.projectDir, t.branch) : null;
  if (git && !commit) throw new DeployError(`deploy_branch "${t.branch}" does not exist in the project's git repository; set deploy_branch in .basin/cloud.yml or create the branch.`);
  const node = t.dev ? `cd ${sq(rel)} && BASIN_DEV=1 node --conditions=development --import tsx bin/basin.mjs` : `cd ${sq(rel)} && node bin/basin.mjs`;
  const listenHost = t.domain ? '127.0.0.1' : '0.0.0.0';
  const startCmd = `${node} start --project ${sq(proj)} --host ${listenHost} --port ${t.port}`;
  const steps: Step[] = [];
  const add = (title: string, command: string, run: () => Promise<string | void>) => steps.push({ title, command, run });

  add('prepare the directories on the server', `mkdir -p ${R}/project && chmod 700 ${R}`, async () => check(await remote(t.ssh, `mkdir -p ${sq(proj)} && chmod 700 ${sq(R)}`), 'creating the directories'));

  if (t.reuseInstall) {
    add('use the Basin install already on the server', `ln -sfn ${t.reuseInstall} ${rel}`, async () => check(await remote(t.ssh, `test -f ${sq(t.reuseInstall!)}/bin/basin.mjs && ln -sfn ${sq(t.reuseInstall!)} ${sq(rel)}`), 'linking the Basin install'));
  } else {
    add('upload the Basin release this command runs', `tar -C ${t.installRoot} -c . | ssh … tar -x -C ${rel}`, async () =>
      check(await remote(t.ssh, `rm -rf ${sq(rel)}.new && mkdir -p ${sq(rel)}.new && tar -x -C ${sq(rel)}.new`, releaseTar(t.installRoot)), 'unpacking the release'),
    );
    add('run the setup script there (npm packages, companion virtualenvs) and build', `cd ${rel}.new && node scripts/setup.mjs && npm run build`, async () =>
      check(await remote(t.ssh, `cd ${sq(`${rel}.new`)} && node scripts/setup.mjs && npm run build && rm -rf ${sq(`${rel}.old`)} && { [ ! -e ${sq(rel)} ] || mv ${sq(rel)} ${sq(`${rel}.old`)}; } && mv ${sq(`${rel}.new`)} ${sq(rel)}`), 'the setup script'),
    );
  }

  add(
    git ? `upload the project at ${t.branch} (${commit?.slice(0, 12)})` : 'upload the project files',
    git ? `git archive ${t.branch} | ssh … tar -x -C ${proj}` : `tar -c (without the warehouse, state and users) | ssh … tar -x -C ${proj}`,
    async () => check(await remote(t.ssh, `tar -x -C ${sq(proj)}`, projectTar(t.projectDir, { git, branch: t.branch, excludes: projectExcludes(t.dbPath, t.dataDir) })), 'unpacking the project'),
  );
  for (const f of existingSensitive(t.projectDir)) {
    add(`upload ${f} (mode 0600)`, `ssh … 'umask 077; cat > ${proj}/${f}'`, async () =>
      check(await remote(t.ssh, `umask 077; mkdir -p ${sq(path.posix.dirname(`${proj}/${f}`))} && cat > ${sq(`${proj}/${f}.tmp`)} && mv ${sq(`${proj}/${f}.tmp`)} ${sq(`${proj}/${f}`)}`, fs.readFileSync(path.join(t.projectDir, f))), `writing ${f}`),
    );
  }

  const stop = facts.systemd
    ? `systemctl stop ${unitName} 2>/dev/null || true`
    : `if [ -f ${sq(`${R}/supervise.pid`)} ]; then kill -TERM -- -$(cat ${sq(`${R}/supervise.pid`)}) 2>/dev/null || true; rm -f ${sq(`${R}/supervise.pid`)}; fi; for i in $(seq 1 100); do [ -f ${sq(`${proj}/.basin/server.json`)} ] || break; sleep 0.2; done`;
  add('stop the running Basin (if any)', stop, async () => check(await remote(t.ssh, stop), 'stopping Basin'));

  if (facts.firstDeploy) {
    add('issue the one-time deploy token for the initial sync', `${node} initial-sync token --project ${proj}`, async () => {
      const r = await remote(t.ssh, `${node} initial-sync token --project ${sq(proj)}`);
      check(r, 'issuing the deploy token');
      const token = /basin_dt_[A-Za-z0-9_-]+/.exec(r.stdout)?.[0];
      if (!token) throw new DeployError('the server did not print a deploy token');
      return token;
    });
  }

  if (facts.systemd) {
    const unit = [
      '[Unit]',
      'Description=Basin analytics platform',
      'After=network-online.target',
      '',
      '[Service]',
      `WorkingDirectory=${rel}`,
      `ExecStart=/bin/sh -c ${JSON.stringify(startCmd)}`,
      'Restart=always',
      'RestartSec=3',
      'KillSignal=SIGTERM',
      'TimeoutStopSec=60',
      '',
      '[Install]',
      'WantedBy=multi-user.target',
      '',
    ].join('\n');
    add(`write /etc/systemd/system/${unitName} and (re)start it`, `systemctl daemon-reload && systemctl enable ${unitName} && systemctl restart ${unitName}`, async () =>
      check(await remote(t.ssh, `cat > /etc/systemd/system/${unitName} && systemctl daemon-reload && systemctl enable ${unitName} && systemctl restart ${unitName}`, Buffer.from(unit)), 'starting the systemd unit'),
    );
  } else {
    const script = ['#!/bin/sh', '# Keeps Basin running on a host without systemd (written by basin deploy).', 'while :; do', `  ${startCmd}`, '  echo "basin exited with $?; restarting in 3 s"', '  sleep 3', 'done', ''].join('\n');
    add('start Basin as a supervised process (no systemd here)', `setsid ${R}/supervise.sh >> ${R}/basin.log 2>&1 &`, async () =>
      check(
        await remote(t.ssh, `cat > ${sq(`${R}/supervise.sh`)} && chmod 700 ${sq(`${R}/supervise.sh`)} && (setsid ${sq(`${R}/supervise.sh`)} >> ${sq(`${R}/basin.log`)} 2>&1 < /dev/null & echo $! > ${sq(`${R}/supervise.pid`)})`, Buffer.from(script)),
        'starting Basin',
      ),
    );
  }

  if (t.domain) {
    const caddyfile = `${t.domain} {\n\treverse_proxy 127.0.0.1:${t.port}\n}\n`;
    const cmd = facts.systemd ? 'systemctl reload caddy || systemctl restart caddy' : 'caddy reload --config /etc/caddy/Caddyfile || (caddy start --config /etc/caddy/Caddyfile)';
    add(`put Caddy (TLS) in front for ${t.domain}`, `apt-get install -y caddy && write /etc/caddy/Caddyfile && ${cmd}`, async () =>
      check(await remote(t.ssh, `command -v caddy >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq caddy; cat > /etc/caddy/Caddyfile && (${cmd})`, Buffer.from(caddyfile)), 'setting up Caddy'),
    );
  }

  const health = `for i in $(seq 1 240); do curl -fsS http://127.0.0.1:${t.port}/api/status >/dev/null 2>&1 && exit 0; sleep 0.5; done; exit 1`;
  add(`wait until Basin answers /api/status on port ${t.port}`, health, async () => {
    const r = await remote(t.ssh, health);
    if (r.code !== 0) {
      const log = await remote(t.ssh, facts.systemd ? `journalctl -u ${unitName} -n 30 --no-pager` : `tail -n 30 ${sq(`${R}/basin.log`)}`);
      throw new DeployError(`Basin did not answer on port ${t.port} within 2 minutes. Its last log lines:\n${log.stdout}`);
    }
  });

  const entry = JSON.stringify({ at: new Date().toISOString(), provider: 'byos', host: t.ssh.host, branch: git ? t.branch : null, commit, first: facts.firstDeploy, status: 'succeeded' });
  add('record the deploy in .basin/deployments.jsonl', `echo '{…}' >> ${proj}/.basin/deployments.jsonl`, async () =>
    check(await remote(t.ssh, `cat >> ${sq(`${proj}/.basin/deployments.jsonl`)} && touch ${sq(`${proj}/.basin/deployed`)}`, Buffer.from(`${entry}\n`)), 'writing the deploy journal'),
  );
  return steps;
}

/** what the server is: systemd or not, first deploy or not */
export async function probe(t: DeployTarget): Promise<{ systemd: boolean; firstDeploy: boolean }> {
  const r = await remote(t.ssh, `command -v node >/dev/null || { echo "node is not installed" >&2; exit 3; }; [ -d /run/systemd/system ] && echo systemd=yes || echo systemd=no; [ -f ${sq(`${t.remoteDir}/project/.basin/deployed`)} ] && echo first=no || echo first=yes`);
  if (r.code === 255) throw new DeployError(`Cannot reach ${t.ssh.user}@${t.ssh.host}:${t.ssh.port} over SSH with ${t.ssh.keyPath}: ${r.stderr.trim()}`);
  if (r.code === 3) throw new DeployError('Node.js is not installed on the server; install Node 20 or newer there (e.g. apt-get install nodejs) and deploy again.');
  check(r, 'probing the server');
  return { systemd: r.stdout.includes('systemd=yes'), firstDeploy: r.stdout.includes('first=yes') };
}
