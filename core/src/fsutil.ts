import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

/** Writes a file atomically: temp file in the same directory, fsync, rename. Readers see old or new, never half. */
export function writeFileAtomic(file: string, data: string | Buffer, mode?: number): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  const fd = fs.openSync(tmp, 'w', mode ?? 0o644);
  try {
    fs.writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
}

/**
 * Resolves `candidate` against `root` and refuses anything that escapes it, including through symlinks.
 * Returns the real path, or null when the path is outside.
 */
export function resolveInside(root: string, candidate: string): string | null {
  const realRoot = fs.realpathSync(root);
  const abs = path.resolve(realRoot, candidate);
  let real: string;
  try {
    real = fs.realpathSync(abs);
  } catch {
    // a path that does not exist yet: check its parent chain lexically against the real root
    real = abs;
  }
  const rel = path.relative(realRoot, real);
  if (rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))) return real;
  return null;
}
