import type { CatalogGraph } from './graph.js';

export interface SearchHit {
  id: string;
  name: string;
  kind: string;
  layer: string;
  score: number;
  matches: Array<{ field: 'name' | 'description' | 'column' | 'column_description' | 'tag'; value: string }>;
}

/**
 * Ranks nodes by where the text occurs: exact name > name prefix > name substring > column name >
 * tag > description. Case-insensitive; every hit says what matched.
 */
export function searchCatalog(g: CatalogGraph, q: string, limit = 50): SearchHit[] {
  const needle = q.trim().toLowerCase();
  const hits: SearchHit[] = [];
  for (const n of g.nodes.values()) {
    let score = 0;
    const matches: SearchHit['matches'] = [];
    const name = n.name.toLowerCase();
    const bare = (n.relation ?? n.name).toLowerCase();
    if (name === needle || bare === needle) score += 100;
    else if (name.startsWith(needle) || bare.startsWith(needle)) score += 60;
    else if (name.includes(needle)) score += 40;
    if (score) matches.push({ field: 'name', value: n.name });
    for (const c of n.columns) {
      const cn = c.name.toLowerCase();
      if (cn === needle) (score += 30), matches.push({ field: 'column', value: c.name });
      else if (cn.includes(needle)) (score += 15), matches.push({ field: 'column', value: c.name });
      else if (c.description.toLowerCase().includes(needle)) (score += 5), matches.push({ field: 'column_description', value: c.name });
    }
    for (const t of n.tags) if (t.toLowerCase().includes(needle)) (score += 10), matches.push({ field: 'tag', value: t });
    if (n.description.toLowerCase().includes(needle)) (score += 10), matches.push({ field: 'description', value: n.description.slice(0, 200) });
    if (score) hits.push({ id: n.id, name: n.name, kind: n.kind, layer: n.layer, score, matches });
  }
  return hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name)).slice(0, limit);
}
