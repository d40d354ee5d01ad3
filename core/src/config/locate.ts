import type { Document, LineCounter, Node } from 'yaml';
import { yaml } from '../lazy-deps.js';

/**
 * Finds line and column of a path in a parsed YAML document. For the last segment it points at the
 * key (so "unknown key" errors land on the key); when the path is missing it falls back to the
 * deepest node that exists.
 */
export function locateYaml(doc: Document, lc: LineCounter, pointer: string, at: 'key' | 'value' = 'key'): { line: number; column: number } | undefined {
  const { isMap, isSeq, isPair, isScalar } = yaml();
  const segs = pointer.split('/').filter(Boolean).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: Node | null | undefined = doc.contents as Node | null;
  let pos: number | undefined = node?.range?.[0];
  for (const seg of segs) {
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === seg);
      if (!pair) break;
      const key = pair.key as Node;
      pos = key.range?.[0] ?? pos;
      node = pair.value as Node | null;
      if (at === 'value' && seg === segs[segs.length - 1] && node?.range && !isMap(node) && !isSeq(node)) pos = node.range[0];
    } else if (isSeq(node)) {
      const item = node.items[Number(seg)] as Node | undefined;
      if (!item) break;
      pos = item.range?.[0] ?? pos;
      node = item;
    } else break;
  }
  if (pos === undefined) return undefined;
  const { line, col } = lc.linePos(pos);
  return { line, column: col };
}
