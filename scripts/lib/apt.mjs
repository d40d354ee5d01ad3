// Installs Debian packages when missing, idempotently; serialized with a lock file so parallel
// setup steps never fight over dpkg. Used by scripts/setup.d/*.mjs.
import { execFileSync, spawnSync } from 'node:child_process';

export function hasDebPackage(name) {
  const r = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
  return r.status === 0 && r.stdout.includes('install ok installed');
}

let updated = false;
export function ensureApt(packages) {
  const missing = packages.filter((p) => !hasDebPackage(p));
  if (!missing.length) return;
  const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
  const run = (args) => {
    const cmd = [...sudo, ...args];
    console.log(`[setup] ${cmd.join(' ')}`);
    execFileSync('flock', ['/tmp/basin-apt.lock', ...cmd], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  };
  if (!updated) {
    run(['apt-get', 'update', '-qq']);
    updated = true;
  }
  run(['apt-get', 'install', '-y', '-qq', '--no-install-recommends', ...missing]);
}
