/**
 * Regroups record arrays into batches of about `size` rows, the unit the engine bulk-loads.
 * Large input arrays pass through without copying.
 */
export async function* batchRecords(pages: AsyncIterable<Record<string, unknown>[]>, size = 5000): AsyncGenerator<Record<string, unknown>[]> {
  let buf: Record<string, unknown>[] = [];
  for await (const page of pages) {
    if (page.length === 0) continue;
    if (page.length >= size) {
      if (buf.length) yield buf;
      buf = [];
      yield page;
      continue;
    }
    for (const r of page) buf.push(r);
    if (buf.length >= size) {
      yield buf;
      buf = [];
    }
  }
  if (buf.length) yield buf;
}
