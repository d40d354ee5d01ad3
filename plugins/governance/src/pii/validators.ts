import net from 'node:net';

/** Checksums and format rules used by the value detectors. Pure functions. */

export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** issuer prefixes and lengths of the major card networks (Visa, Mastercard, Amex, Discover, JCB, Diners) */
export function plausibleCardPrefix(d: string): boolean {
  const n = d.length;
  const p2 = Number(d.slice(0, 2));
  const p4 = Number(d.slice(0, 4));
  if (d[0] === '4') return n === 13 || n === 16 || n === 19;
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return n === 16;
  if (p2 === 34 || p2 === 37) return n === 15;
  if (p4 === 6011 || p2 === 65) return n === 16 || n === 19;
  if (p4 >= 3528 && p4 <= 3589) return n >= 16 && n <= 19;
  if (p2 === 36 || p2 === 38 || p2 === 39 || (p4 >= 3000 && p4 <= 3059)) return n >= 14 && n <= 19;
  return false;
}

/** card numbers as written: digits, optionally in groups separated by one space or dash */
export function cardDigits(v: string): string | null {
  if (!/^\d{4}([ -]?\d{2,6}){2,4}$/.test(v) && !/^\d{13,19}$/.test(v)) return null;
  const d = v.replace(/[ -]/g, '');
  return d.length >= 13 && d.length <= 19 ? d : null;
}

export const isCreditCard = (v: string): boolean => {
  const d = cardDigits(v);
  return !!d && plausibleCardPrefix(d) && luhnValid(d);
};

/** IBAN lengths per country (a subset covering SEPA and common others); unknown countries fall back to 15..34 */
const IBAN_LENGTHS: Record<string, number> = {
  AD: 24, AT: 20, BE: 16, BG: 22, CH: 21, CY: 28, CZ: 24, DE: 22, DK: 18, EE: 20, ES: 24, FI: 18, FR: 27, GB: 22, GR: 27,
  HR: 21, HU: 28, IE: 22, IS: 26, IT: 27, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MT: 31, NL: 18, NO: 15, PL: 28, PT: 25,
  RO: 24, SE: 24, SI: 19, SK: 24, SM: 27, TR: 26, AE: 23, SA: 24, IL: 23, BR: 29,
};

export function isIban(v: string): boolean {
  const s = v.replace(/ /g, '').toUpperCase();
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(s)) return false;
  const len = IBAN_LENGTHS[s.slice(0, 2)];
  if (len !== undefined && s.length !== len) return false;
  const rearranged = s.slice(4) + s.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const chunk = code >= 65 ? String(code - 55) : ch;
    for (const c of chunk) rem = (rem * 10 + (c.charCodeAt(0) - 48)) % 97;
  }
  return rem === 1;
}

export const isEmail = (v: string): boolean =>
  v.length <= 254 && /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}$/.test(v) && !v.includes('..');

export const isIpv4 = (v: string): boolean => net.isIPv4(v) && /^\d{1,3}(\.\d{1,3}){3}$/.test(v);
export const isIpv6 = (v: string): boolean => net.isIPv6(v) && (v.match(/:/g)?.length ?? 0) >= 2;

/**
 * Phone numbers as people write them: international (+ and 8-15 digits) or national with separators
 * (9-15 digits). Bare digit runs are ambiguous (ids, amounts) and count only when `bareAllowed`
 * (the column's name says phone).
 */
export function isPhone(raw: string, bareAllowed = false): boolean {
  const v = raw.replace(/\s*(x|ext\.?)\s*\d{1,6}$/i, ''); // an extension: 440-615-6146 x40565
  if (!/^\+?[\d\s().\-/]{7,24}$/.test(v)) return false;
  if (/[.\-/ ]{2,}/.test(v)) return false;
  // a CPF (505.965.050-27) or a dotted id is not a phone number
  if (/^\d{3}\.\d{3}\.\d{3}-\d{2}$/.test(v)) return false;
  const digits = v.replace(/\D/g, '');
  if (v.startsWith('+')) return digits.length >= 8 && digits.length <= 15 && !/^\+\d+\.\d+$/.test(v);
  const separated = /[\s().\-]/.test(v);
  if (separated) {
    if (/^\d{4}-\d{2}-\d{2}$/.test(v) || /^\d+\.\d+$/.test(v)) return false; // dates, decimals
    return digits.length >= 9 && digits.length <= 15 && /^\(?\d{2,5}\)?[\s.\-]?\d{2,5}([\s.\-]?\d{2,5}){1,3}$/.test(v);
  }
  return bareAllowed && digits.length >= 10 && digits.length <= 15;
}
