import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { isStreetName } from './addresses.js';

/**
 * Name data the person-name detector reads, loaded once:
 * - `known`: ~197,000 given and family names of many countries (the `humannames` package, ASCII);
 * - `englishWords`: names that are also English words (from `an-array-of-english-words`): such a
 *   name (Rose, Baker, Steel) is weaker evidence than one that is not (Kathleen, Perrier);
 * - `cjkFamily`: common Chinese, Japanese and Korean family names (data/cjk-family-names.txt).
 */
export interface NameData {
  known: Set<string>;
  englishWords: Set<string>;
  cjkFamily: Set<string>;
}

let cached: NameData | null = null;

export function nameData(): NameData {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const known = new Set<string>();
  for (const line of fs.readFileSync(require.resolve('humannames/list.txt'), 'utf8').split(/\r?\n/)) if (line) known.add(line.toLowerCase());
  // only the words that are also names matter; keeping the intersection saves ~250,000 strings
  const englishWords = new Set<string>((JSON.parse(fs.readFileSync(require.resolve('an-array-of-english-words'), 'utf8')) as string[]).filter((w) => known.has(w)));
  // src/pii/names.ts in development, dist/index.js when built: the data folder sits at the package root
  const candidates = ['../../data/cjk-family-names.txt', '../data/cjk-family-names.txt'].map((p) => fileURLToPath(new URL(p, import.meta.url)));
  const file = candidates.find((f) => fs.existsSync(f));
  if (!file) throw new Error(`cjk-family-names.txt not found (looked in ${candidates.join(', ')})`);
  const cjkFamily = new Set<string>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const t = line.trim();
    if (t && !t.startsWith('#') && !t.startsWith('[')) for (const w of t.split(/\s+/)) cjkFamily.add(w);
  }
  return (cached = { known, englishWords, cjkFamily });
}

/** lower case, accents removed (the name list is ASCII): `Bartholomäus` → `bartholomaus`, `Groß` → `gross` */
export const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'ss')
    .replace(/[øØ]/g, 'o')
    .replace(/[łŁ]/g, 'l')
    .toLowerCase();

/** titles before a name and suffixes after it, in the languages the detector knows (lower case, no dot) */
const HONORIFICS = new Set(
  'mr mrs ms miss mx dr prof sir dame lady lord rev herr frau fräulein fr hr dipl ing mag dott dottssa dottoressa sig sigra signor signora sr sra srta don doña dña dª señor señora señorita senhor senhora m mme mlle monsieur madame mademoiselle me maître mevr dhr'.split(' '),
);
const SUFFIXES = new Set('jr junior sr snr jnr i ii iii iv v phd md filho neto sobrinho júnior'.split(' '));
/** lower-case parts of family names */
const PARTICLES = new Set('de del della dei di da das do dos du la le les van von der den ter ten zu zum y e bin ibn al el st'.split(' '));
/** words that make a value an organisation, not a person */
const ORGANISATION = /(^|\s)(&|and|und|et|e hijos|y asociados|gmbh|ag|kg|ohg|gbr|e\.?v\.?|inc\.?|llc|ltd\.?|plc|corp\.?|co\.|s\.?a\.?|s\.?l\.?|sarl|sas|srl|s\.?p\.?a\.?|spa|bv|nv|oy|ab|ltda\.?|eireli|hermanos|hnos\.?|group|gruppe|groupe|grupo|holding|holdings|company|compañía|companhia|société|services|solutions|systems|partners|associates|consulting|comércio|comercio|industries|international)(\s|,|$)/i;

const CJK_VALUE = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー・]{2,8}$/u;
const CJK_NAME_PARTS = /^[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}ー]{1,6}$/u;
/** characters that mark CJK places, organisations and things rather than people */
const CJK_NOT_A_NAME = /([都道府県市区町村郡]$|丁目|番地|駅|[店社園館院局部課室科]$|会社|有限|合同|合資|水産|商事|工業|銀行|大学|病院|製品|公司|集团)/u;
const CJK_HONORIFIC = /(様|さん|氏|先生|殿|君|ちゃん|先生)$/u;

/** a token shaped like one part of a Latin-script name: capitalised (Ana, O'Brien, Müller-Lüdenscheidt), all capitals (GARCÍA) or an initial (J.) */
const NAME_TOKEN = /^(\p{Lu}[\p{Ll}\p{M}]*(['’]\p{Lu}?[\p{Ll}\p{M}]+)?(-\p{Lu}[\p{Ll}\p{M}]+)*|\p{Lu}{2,}(-\p{Lu}{2,})?|\p{Lu}\.)$/u;

const stripDot = (t: string) => t.replace(/[.,]$/, '');

/**
 * How much a value looks like a person's name, 0..1.
 * Latin script: 2-5 name-shaped tokens (particles and a title or suffix allowed around them); each
 * token found in the name data counts, more when it is not also a common English word; a title
 * (`Sr.`, `Frau`, `Mlle`) is evidence on its own. `Last, First` is read too. Organisation words
 * (`GmbH`, `and`, `Hermanos`) rule a value out.
 * CJK script: 2-8 Han/kana characters, optionally `family given` with a space and an honorific
 * suffix; a known family name at the start counts fully, the spaced shape alone counts part.
 * Single words count only when the column's name says it holds names (`singleAllowed`).
 */
export function personNameScore(raw: string, singleAllowed = false): number {
  let v = raw.trim();
  if (!v || v.length > 80 || /\d|@|[/\\|:;]/.test(v)) return 0;
  if (/[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}]/u.test(v)) return cjkNameScore(v, nameData(), singleAllowed);
  if (/\p{sc=Hangul}/u.test(v)) return hangulNameScore(v, nameData());
  if (ORGANISATION.test(v) || isStreetName(v)) return 0;
  // "Webb, Kathleen"
  const comma = v.split(',');
  if (comma.length === 2 && !/\s/.test(comma[0]!.trim()) && comma[1]!.trim()) v = `${comma[1]!.trim()} ${comma[0]!.trim()}`;
  else if (comma.length > 1 && !SUFFIXES.has(fold(stripDot(comma.slice(1).join(',').trim())))) return 0;
  let tokens = v.replace(/,/g, ' ').split(/\s+/);
  let titled = false;
  while (tokens.length && HONORIFICS.has(fold(stripDot(tokens[0]!)))) {
    titled = true;
    tokens = tokens.slice(1);
  }
  while (tokens.length && SUFFIXES.has(fold(stripDot(tokens[tokens.length - 1]!)))) tokens = tokens.slice(0, -1);
  const parts = tokens.filter((t) => !PARTICLES.has(t));
  if (!parts.length || parts.length > 5 || !parts.every((t) => NAME_TOKEN.test(t))) return 0;
  if (parts.every((t) => /^\p{Lu}\.$/u.test(t))) return 0;
  if (parts.length === 1 && !singleAllowed && !titled) return 0;

  // the name lists (~0.15 s to build) load only for a value shaped like a name, not for ids or codes
  const data = nameData();
  let distinctive = 0;
  let common = 0;
  let unknown = 0;
  for (const t of parts) {
    if (/^\p{Lu}\.$/u.test(t)) continue;
    const pieces = fold(t).split(/['’-]/).filter(Boolean);
    if (pieces.some((p) => data.known.has(p))) {
      if (pieces.every((p) => data.englishWords.has(p))) common++;
      else distinctive++;
    } else unknown++;
  }
  let score: number;
  if (unknown === 0) score = distinctive > 0 ? 1 : 0.3;
  else if (unknown === 1 && distinctive > 0) score = 0.6;
  else if (unknown === 1 && common > 0) score = 0.3;
  else score = parts.length === 1 && singleAllowed ? 0.5 : 0;
  if (titled) score = Math.max(score, unknown <= 1 ? 0.9 : 0.6);
  return score;
}

function cjkNameScore(v: string, data: NameData, singleAllowed: boolean): number {
  const bare = v.replace(CJK_HONORIFIC, '').trim();
  const parts = bare.split(/[\s\u3000・]+/).filter(Boolean);
  if (parts.length > 2 || !parts.every((p) => CJK_NAME_PARTS.test(p))) return 0;
  const joined = parts.join('');
  if (!CJK_VALUE.test(joined) || CJK_NOT_A_NAME.test(joined)) return 0;
  const family = [3, 2, 1].some((n) => joined.length > n && data.cjkFamily.has(joined.slice(0, n)));
  if (parts.length === 2) return family ? 1 : /^[\p{sc=Han}]+$/u.test(parts[0]!) ? 0.7 : 0.5;
  if (family && joined.length <= 6) return 0.8;
  // a Han family name and a kana given name (杉山さくら, 小坂トミ)
  if (/^[\p{sc=Han}]{1,3}[\p{sc=Hiragana}\p{sc=Katakana}ー]{1,4}$/u.test(joined)) return 0.7;
  // an honorific after a short Han name (`篠原秀雄様`) marks a person even when the family name is not listed
  if (bare !== v && /^[\p{sc=Han}]{2,5}$/u.test(joined)) return 0.9;
  // three or four Han characters is the usual length of a full name; without a listed family name it is shape only
  if (/^[\p{sc=Han}]{3,4}$/u.test(joined)) return 0.5;
  return singleAllowed ? 0.5 : 0;
}

/** Korean: 2-4 Hangul syllables (family name first, usually one syllable), optionally spaced after the family name */
function hangulNameScore(v: string, data: NameData): number {
  const joined = v.replace(/[\s님씨]+$/u, '').replace(/\s+/gu, '');
  if (!/^\p{sc=Hangul}{2,4}$/u.test(joined) || /(주식회사|회사|은행|대학|병원|센터)/u.test(joined)) return 0;
  const family = [2, 1].some((n) => joined.length > n && data.cjkFamily.has(joined.slice(0, n)));
  return family ? 0.9 : 0;
}
