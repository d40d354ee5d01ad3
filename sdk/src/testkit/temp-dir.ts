import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// Every test file runs in its own process; its temp dirs go when it exits, so a suite run does not
// leave thousands of project dirs in /tmp. BASIN_KEEP_TMP=1 keeps them to look at a failure.
const made: string[] = [];
let hooked = false;

/** a fresh directory under the OS temp dir, removed when this process exits */
export function tempTestDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  if (!hooked && !process.env.BASIN_KEEP_TMP) {
    hooked = true;
    process.once('exit', () => {
      for (const d of made) fs.rmSync(d, { recursive: true, force: true, maxRetries: 2 });
    });
  }
  return dir;
}
