import { isCreditCard, isEmail, isIban, isPhone } from './validators.js';
import { isNationalId } from './national-ids.js';
import type { EntityType } from './types.js';

/** Free text: words around something. Single tokens are judged as whole values by the other detectors. */
export const isFreeText = (v: string): boolean => v.length >= 8 && /\s/.test(v.trim());

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,24}/g;
/** phone-like runs: international with +, or national with separators */
const PHONE = /\+?\(?\d[\d\s().\-/]{6,22}\d/g;
const ID = /\b[A-Z0-9][A-Z0-9 .\-]{7,32}[A-Z0-9]\b/gi;

/** The validated entities found inside one free-text value (e-mails, phones, cards, IBANs, national ids). */
export function entitiesInText(v: string): Set<EntityType> {
  const found = new Set<EntityType>();
  if (!isFreeText(v)) return found;
  for (const m of v.match(EMAIL) ?? []) if (isEmail(m.replace(/[.]+$/, ''))) found.add('email');
  for (const m of v.match(ID) ?? []) {
    const t = m.trim();
    if (isIban(t)) found.add('iban');
    else if (isCreditCard(t)) found.add('credit_card');
    else if (isNationalId(t)) found.add('national_id');
  }
  for (const m of v.match(PHONE) ?? []) {
    const t = m.trim();
    if (!found.has('national_id') && !isNationalId(t) && !isCreditCard(t) && isPhone(t)) found.add('phone');
  }
  return found;
}
