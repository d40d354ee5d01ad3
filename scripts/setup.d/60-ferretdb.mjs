// FerretDB v1 (a MongoDB wire-protocol server on SQLite) for the mongodb source tests
// (test/support/ferretdb.ts starts it on a free loopback port once per test file). Built from the Go
// module proxy's source with the machine's Go: the module zip is checked against its pinned go.sum
// hash, version.txt (which the release process generates and the module zip lacks) is written, and
// `cmd/ferretdb` is built without the PostgreSQL backend. Idempotent: the binary under
// ~/.cache/basin/ferretdb is reused while its recorded sha256 matches and it reports the version.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const FERRETDB_MODULE = 'github.com/FerretDB/FerretDB';
export const FERRETDB_VERSION = 'v1.24.2';
/** go.sum's hash of the module zip (`go mod download -json` Sum) */
export const FERRETDB_MODULE_SUM = 'h1:trrUU0LbmusMbyubhPS1IELncvrIwKrsRT2LW1UUWCw=';

export const ferretdbDir = () => process.env.BASIN_FERRETDB_DIR ?? path.join(os.homedir(), '.cache', 'basin', 'ferretdb');
export const ferretdbBin = () => path.join(ferretdbDir(), FERRETDB_VERSION, 'ferretdb');

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

function goBinary() {
  for (const g of [process.env.GO, '/usr/local/go/bin/go', '/usr/lib/go/bin/go']) if (g && fs.existsSync(g)) return g;
  try {
    return execFileSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('Go is needed to build FerretDB (the mongodb source tests): install Go 1.22 or later, or set GO to its binary');
  }
}

/** true when the cached binary is the one this step built and reports the pinned version */
function usable(bin) {
  const stamp = `${bin}.sha256`;
  if (!fs.existsSync(bin) || !fs.existsSync(stamp) || fs.readFileSync(stamp, 'utf8').trim() !== sha256(bin)) return false;
  try {
    return execFileSync(bin, ['--version'], { encoding: 'utf8' }).includes(`version: ${FERRETDB_VERSION}`);
  } catch {
    return false;
  }
}

export default () => {
  const bin = ferretdbBin();
  if (usable(bin)) {
    console.log(`[setup] FerretDB ${FERRETDB_VERSION} up to date at ${bin}`);
    return;
  }
  const go = goBinary();
  const base = ferretdbDir();
  // a Go module cache and build cache of its own (read-write so it can be deleted), removed after the
  // build: about 1 GB that only a rebuild would use
  const env = { ...process.env, GOPATH: path.join(base, 'gopath'), GOCACHE: path.join(base, 'gocache'), GOFLAGS: '-modcacherw -buildvcs=false', CGO_ENABLED: '0' };
  console.log(`[setup] downloading ${FERRETDB_MODULE}@${FERRETDB_VERSION} through the Go module proxy`);
  const info = JSON.parse(execFileSync(go, ['mod', 'download', '-json', `${FERRETDB_MODULE}@${FERRETDB_VERSION}`], { encoding: 'utf8', env, cwd: os.tmpdir() }));
  if (info.Error) throw new Error(`go mod download failed: ${info.Error}`);
  if (info.Sum !== FERRETDB_MODULE_SUM) throw new Error(`FerretDB module checksum mismatch: got ${info.Sum}, expected ${FERRETDB_MODULE_SUM}`);
  const src = fs.mkdtempSync(path.join(base, 'src-'));
  try {
    fs.cpSync(info.Dir, src, { recursive: true });
    for (const f of fs.readdirSync(src, { recursive: true })) fs.chmodSync(path.join(src, String(f)), fs.statSync(path.join(src, String(f))).isDirectory() ? 0o755 : 0o644);
    fs.writeFileSync(path.join(src, 'build', 'version', 'version.txt'), `${FERRETDB_VERSION}\n`);
    fs.writeFileSync(path.join(src, 'build', 'version', 'package.txt'), 'basin\n');
    fs.mkdirSync(path.dirname(bin), { recursive: true });
    const tmp = `${bin}.tmp-${process.pid}`;
    console.log('[setup] building FerretDB (cmd/ferretdb, SQLite backend; a minute or two the first time)');
    execFileSync(go, ['build', '-trimpath', '-tags', 'ferretdb_no_postgresql', '-o', tmp, './cmd/ferretdb'], { cwd: src, env, stdio: 'inherit' });
    fs.renameSync(tmp, bin);
    fs.writeFileSync(`${bin}.sha256`, `${sha256(bin)}\n`);
  } finally {
    fs.rmSync(src, { recursive: true, force: true });
  }
  if (!usable(bin)) throw new Error(`the FerretDB build at ${bin} does not report ${FERRETDB_VERSION}`);
  for (const d of ['gopath', 'gocache']) fs.rmSync(path.join(base, d), { recursive: true, force: true });
  console.log(`[setup] FerretDB ${FERRETDB_VERSION} built at ${bin}`);
};
