import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

const MAX_CONCURRENT = 4;
let running = 0;
const waiting: Array<() => void> = [];

/** sha256 of a file's content, streamed (hex); at most 4 files are read at once per process. */
export async function hashFile(file: string): Promise<string> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await new Promise((resolve, reject) => {
      const h = createHash('sha256');
      createReadStream(file, { highWaterMark: 1 << 20 })
        .on('data', (chunk) => h.update(chunk))
        .on('error', reject)
        .on('end', () => resolve(h.digest('hex')));
    });
  } finally {
    running--;
    waiting.shift()?.();
  }
}
