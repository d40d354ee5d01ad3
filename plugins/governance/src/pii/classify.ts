import { addressScore } from './addresses.js';
import { entityFromColumnName } from './column-names.js';
import { businessNumberColumn, CONTEXT_SENSITIVE, isSequential } from './context.js';
import { isBirthDate } from './dates.js';
import { entitiesInText } from './free-text.js';
import { maskValue } from './mask.js';
import { personNameScore } from './names.js';
import { isNationalId } from './national-ids.js';
import type { EntityType } from './types.js';
import { isCreditCard, isEmail, isIban, isIpv4, isIpv6, isPhone } from './validators.js';

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
  ['national_id', (v, hint) => (isNationalId(v, hint) ? 1 : 0)],
  ['ip_address', (v) => (isIpv4(v) || isIpv6(v) ? 1 : 0)],
  ['phone', (v, hint) => (isPhone(v, hint) && !isNationalId(v) ? 1 : 0)],
  ['person_name', (v, hint) => personNameScore(v, hint)],
  ['address', (v) => addressScore(v)],
];

/** a date of birth is asked of dates only when the column's name says birth */
const DATE_DETECTORS: Array<[EntityType, Detector]> = [['date_of_birth', (v, hint) => (hint && isBirthDate(v) ? 1 : 0)]];

/** share of free-text values that must hold a validated e-mail, phone or id for the column to count */
const MIN_TEXT_SHARE = 0.1;
const TEXT_STRENGTH = 0.75;

/** types whose values are worth inspecting (text and integers, since card numbers are sometimes numbers; dates and timestamps for birth dates) */
export const isInspectableType = (t: string): boolean => /^(VARCHAR|TEXT|STRING|CHAR|BPCHAR|BIGINT|HUGEINT|UBIGINT|INTEGER|JSON|DATE|TIMESTAMP)/i.test(t);
const isTemporalType = (t: string | undefined): boolean => !!t && /^(DATE|TIMESTAMP)/i.test(t);

/**
 * Decides whether one column holds PII from its name and a sample of its values. Value detectors
 * validate (Luhn, mod-97, octet ranges, SSN area rules) so look-alikes such as random 16-digit ids or
 * version strings fail; a name hint alone counts only when the values do not contradict it.
 */
export function classifyColumn(column: string, values: string[], opts: ClassifyOptions, dataType?: string): ColumnVerdict | null {
  const hint = entityFromColumnName(column);
  const sample = values.map((v) => v.trim()).filter((v) => v !== '');
  const n = sample.length;
  const detectors = isTemporalType(dataType) ? DATE_DETECTORS : DETECTORS;
  // version strings, invoice numbers and numbered series look like ips, phones and ids but are not personal
  const businessContext = businessNumberColumn(column) || isSequential(sample);

  let best: { entity: EntityType; share: number; matched: string[] } | null = null;
  if (n > 0) {
    for (const [entity, detect] of detectors) {
      if (businessContext && CONTEXT_SENSITIVE.has(entity) && hint?.entity !== entity) continue;
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

  // free text: an e-mail, phone or id inside notes counts at a lower share (values are not the entity)
  let inText: { entity: EntityType; share: number; matched: string[] } | null = null;
  if (n > 0 && !isTemporalType(dataType) && (!best || best.share < opts.minMatchShare)) {
    const counts = new Map<EntityType, string[]>();
    for (const v of sample) for (const e of entitiesInText(v)) counts.set(e, [...(counts.get(e) ?? []), v]);
    for (const [entity, hits] of counts) {
      if (businessContext && CONTEXT_SENSITIVE.has(entity)) continue;
      const share = hits.length / n;
      if (hits.length >= 2 && share >= MIN_TEXT_SHARE && (!inText || share > inText.share)) inText = { entity, share, matched: hits.slice(0, 3) };
    }
  }

  const masked = (entity: EntityType, vals: string[]) => vals.slice(0, 3).map((v) => maskValue(entity, v));
  const round = (x: number) => Math.round(x * 1000) / 1000;
  let verdict: ColumnVerdict | null = null;

  if (best && best.share >= opts.minMatchShare) {
    const agrees = hint?.entity === best.entity;
    const confidence = Math.min(1, STRENGTH[best.entity] * best.share + (agrees ? 0.2 : 0));
    verdict = { entity_type: best.entity, confidence, matched_share: best.share, sample_count: n, masked_examples: masked(best.entity, best.matched), method: agrees ? 'name+value' : 'value' };
  } else if (inText) {
    const confidence = Math.min(1, TEXT_STRENGTH + inText.share * 0.2);
    verdict = { entity_type: inText.entity, confidence, matched_share: inText.share, sample_count: n, masked_examples: inText.matched.map((v) => maskInText(inText!.entity, v)), method: 'value' };
  } else if (hint) {
    const detectable = detectors.some(([e]) => e === hint.entity);
    const share = best?.entity === hint.entity ? best.share : 0;
    // values exist and the detector for the named entity finds (almost) nothing: the name misleads
    // a weak hint (`name`, `owner`) needs the values to agree as much as a value match would
    if (detectable && n > 0 && share < (hint.strong ? 0.2 : opts.minMatchShare)) verdict = null;
    else {
      const base = hint.strong ? 0.6 : 0.4;
      const confidence = Math.min(1, base + (detectable ? share * 0.4 : 0));
      verdict = { entity_type: hint.entity, confidence, matched_share: share, sample_count: n, masked_examples: masked(hint.entity, share > 0 ? best!.matched : sample.slice(0, 3)), method: share > 0 ? 'name+value' : 'name' };
    }
  }
  if (!verdict || verdict.confidence < opts.minConfidence) return null;
  return { ...verdict, confidence: round(verdict.confidence), matched_share: round(verdict.matched_share) };
}

/** a free-text example shows only the masked entity found in it */
function maskInText(entity: EntityType, text: string): string {
  const m = entity === 'email' ? /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,24}/.exec(text)?.[0] : null;
  return m ? `… ${maskValue(entity, m)} …` : `… (${entity}) …`;
}
