import { entityFromColumnName } from './column-names.js';
import { maskValue } from './mask.js';
import { nameLists, personNameScore } from './names.js';
import type { EntityType } from './types.js';
import { isCreditCard, isEmail, isIban, isIpv4, isIpv6, isPhone, isUkNino, isUsSsn } from './validators.js';

export interface ClassifyOptions {
  /** share of non-null sampled values a detector must match to call a column PII on values alone */
  minMatchShare: number;
  /** findings below this confidence are dropped */
  minConfidence: number;
}

export interface ColumnVerdict {
  entity_type: EntityType;
  confidence: number;
  matched_share: number;
  sample_count: number;
  masked_examples: string[];
  method: 'value' | 'name' | 'name+value';
}

/** how much a validated match of each kind is worth on its own (checksummed formats rank highest) */
const STRENGTH: Record<EntityType, number> = {
  email: 0.95,
  credit_card: 0.95,
  iban: 0.95,
  national_id: 0.85,
  ip_address: 0.85,
  phone: 0.8,
  person_name: 0.75,
  address: 0.6,
  date_of_birth: 0.6,
};

type Detector = (v: string, nameHint: boolean) => number;

const DETECTORS: Array<[EntityType, Detector]> = [
  ['email', (v) => (isEmail(v) ? 1 : 0)],
  ['credit_card', (v) => (isCreditCard(v) ? 1 : 0)],
  ['iban', (v) => (isIban(v) ? 1 : 0)],
  ['national_id', (v, hint) => (isUsSsn(v, hint) || isUkNino(v) ? 1 : 0)],
  ['ip_address', (v) => (isIpv4(v) || isIpv6(v) ? 1 : 0)],
  ['phone', (v, hint) => (isPhone(v, hint) ? 1 : 0)],
  ['person_name', (v, hint) => personNameScore(v, nameLists(), hint)],
];

/** types whose values are worth inspecting (text and integers; card numbers are sometimes stored as numbers) */
export const isInspectableType = (t: string): boolean => /^(VARCHAR|TEXT|STRING|CHAR|BPCHAR|BIGINT|HUGEINT|UBIGINT|INTEGER|JSON)/i.test(t);

/**
 * Decides whether one column holds PII from its name and a sample of its values. Value detectors
 * validate (Luhn, mod-97, octet ranges, SSN area rules) so look-alikes such as random 16-digit ids or
 * version strings fail; a name hint alone counts only when the values do not contradict it.
 */
export function classifyColumn(column: string, values: string[], opts: ClassifyOptions): ColumnVerdict | null {
  const hint = entityFromColumnName(column);
  const sample = values.map((v) => v.trim()).filter((v) => v !== '');
  const n = sample.length;

  let best: { entity: EntityType; share: number; matched: string[] } | null = null;
  if (n > 0) {
    for (const [entity, detect] of DETECTORS) {
      const nameSaysSo = hint?.entity === entity;
      let score = 0;
      const matched: string[] = [];
      for (const v of sample) {
        const s = detect(v, nameSaysSo);
        if (s > 0) {
          score += s;
          if (matched.length < 3) matched.push(v);
        }
      }
      const share = score / n;
      if (share > 0 && (!best || share > best.share)) best = { entity, share, matched };
    }
  }

  const masked = (entity: EntityType, vals: string[]) => vals.slice(0, 3).map((v) => maskValue(entity, v));
  const round = (x: number) => Math.round(x * 1000) / 1000;
  let verdict: ColumnVerdict | null = null;

  if (best && best.share >= opts.minMatchShare) {
    const agrees = hint?.entity === best.entity;
    const confidence = Math.min(1, STRENGTH[best.entity] * best.share + (agrees ? 0.2 : 0));
    verdict = { entity_type: best.entity, confidence, matched_share: best.share, sample_count: n, masked_examples: masked(best.entity, best.matched), method: agrees ? 'name+value' : 'value' };
  } else if (hint) {
    const detectable = DETECTORS.some(([e]) => e === hint.entity);
    const share = best?.entity === hint.entity ? best.share : 0;
    // values exist and the detector for the named entity finds (almost) nothing: the name misleads
    if (detectable && n > 0 && share < 0.2) verdict = null;
    else {
      const base = hint.strong ? 0.6 : 0.4;
      const confidence = Math.min(1, base + (detectable ? share * 0.4 : 0));
      verdict = { entity_type: hint.entity, confidence, matched_share: share, sample_count: n, masked_examples: masked(hint.entity, share > 0 ? best!.matched : sample.slice(0, 3)), method: share > 0 ? 'name+value' : 'name' };
    }
  }
  if (!verdict || verdict.confidence < opts.minConfidence) return null;
  return { ...verdict, confidence: round(verdict.confidence), matched_share: round(verdict.matched_share) };
}
