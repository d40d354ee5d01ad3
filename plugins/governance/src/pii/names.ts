import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The shipped list of common given and family names (data/person-names.txt), loaded once. */
export interface NameLists {
  first: Set<string>;
  last: Set<string>;
}

let cached: NameLists | null = null;

export function nameLists(): NameLists {
  if (cached) return cached;
  // src/pii/names.ts in development, dist/index.js when built: the data folder sits at the package root
  const candidates = ['../../data/person-names.txt', '../data/person-names.txt'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const file = candidates.find((f) => fs.existsSync(f));
  if (!file) throw new Error(`person-names.txt not found (looked in ${candidates.join(', ')})`);
  const lists: NameLists = { first: new Set(), last: new Set() };
  let section: Set<string> | null = null;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    if (t === '[first]') section = lists.first;
    else if (t === '[last]') section = lists.last;
    else if (section) for (const w of t.split(/\s+/)) section.add(w);
  }
  return (cached = lists);
}

/**
 * How much a value looks like a person's name: 1 when it is 2-3 capitalised words with a known given
 * name first and a known family name last, 0.5 when only one end is known, else 0. Single words count
 * (0.5 / 1 for a known name) only when the column name already says it holds names (`singleAllowed`).
 */
export function personNameScore(v: string, lists: NameLists, singleAllowed = false): number {
  const tokens = v.trim().split(/\s+/);
  if (!tokens.every((t) => /^[A-ZÀ-Þ][a-zß-ÿ'-]+$/.test(t) || /^[A-Z]\.$/.test(t))) return 0;
  const lower = tokens.map((t) => t.toLowerCase());
  if (tokens.length === 1) {
    if (!singleAllowed) return 0;
    return lists.first.has(lower[0]!) || lists.last.has(lower[0]!) ? 1 : 0.5;
  }
  if (tokens.length > 3) return 0;
  const first = lists.first.has(lower[0]!);
  const last = lists.last.has(lower[lower.length - 1]!);
  if (first && last) return 1;
  if (first || last) return 0.5;
  return 0;
}
