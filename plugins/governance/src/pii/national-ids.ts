/**
 * National identification numbers with their check rules. Each function takes the value as written
 * (with or without the usual separators) and says whether it is a valid number of that kind.
 */

const digitsOf = (s: string): number[] => [...s].map((c) => c.charCodeAt(0) - 48);

/** Brazil CPF: 11 digits (`505.965.050-27`), two mod-11 check digits; repeated digits are invalid. */
export function isCpf(v: string): boolean {
  if (!/^\d{3}\.?\d{3}\.?\d{3}-?\d{2}$/.test(v)) return false;
  const d = digitsOf(v.replace(/\D/g, ''));
  if (d.every((x) => x === d[0])) return false;
  const check = (n: number) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[i]! * (n + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === d[9] && check(10) === d[10];
}

const DNI_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/** Spain DNI (`12345678Z`) and NIE (`X1234567L`): the letter is the number mod 23. */
export function isSpanishDniNie(v: string): boolean {
  const s = v.replace(/[\s.-]/g, '').toUpperCase();
  const m = /^([XYZ]?)(\d{7,8})([A-Z])$/.exec(s);
  if (!m) return false;
  const [, prefix, num, letter] = m;
  if (prefix ? num!.length !== 7 : num!.length !== 8) return false;
  const n = Number(`${prefix ? 'XYZ'.indexOf(prefix) : ''}${num}`);
  return DNI_LETTERS[n % 23] === letter;
}

/** France NIR (social security number): 13 characters (Corsica 2A/2B) and a key = 97 - (number mod 97). */
export function isFrenchNir(v: string): boolean {
  const s = v.replace(/[\s.-]/g, '').toUpperCase();
  const m = /^([1278])(\d{2})(0[1-9]|1[0-2]|[2-9]\d)(\d{2}|2A|2B)(\d{3})(\d{3})(\d{2})$/.exec(s);
  if (!m) return false;
  const body = s.slice(0, 13);
  let n = BigInt(body.replace('2A', '19').replace('2B', '18'));
  if (body.includes('2A')) n -= 1000000n;
  if (body.includes('2B')) n -= 2000000n;
  return 97n - (n % 97n) === BigInt(m[7]!);
}

/**
 * Germany tax id (Steuer-IdNr): 11 digits, no leading 0; in the first 10 one digit occurs twice or
 * three times and the rest at most once; check digit by ISO 7064 MOD 11,10.
 */
export function isGermanTaxId(v: string): boolean {
  const s = v.replace(/[\s/]/g, '');
  if (!/^[1-9]\d{10}$/.test(s)) return false;
  const d = digitsOf(s);
  const counts = new Map<number, number>();
  for (const x of d.slice(0, 10)) counts.set(x, (counts.get(x) ?? 0) + 1);
  const repeated = [...counts.values()].filter((c) => c > 1);
  if (repeated.length !== 1 || repeated[0]! > 3) return false;
  let product = 10;
  for (const x of d.slice(0, 10)) {
    let sum = (x + product) % 10;
    if (sum === 0) sum = 10;
    product = (sum * 2) % 11;
  }
  const check = (11 - product) % 10;
  return check === d[10];
}

/** UK National Insurance number: two prefix letters (excluded pairs and letters per HMRC), six digits, A-D. */
export const isUkNino = (v: string): boolean => /^(?!BG|GB|NK|KN|TN|NT|ZZ)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]$/.test(v.toUpperCase());

/** US social security number with the area, group and serial rules (no 000/666/9xx area, no 00 group, no 0000 serial). */
export function isUsSsn(v: string, bareAllowed = false): boolean {
  const m = /^(\d{3})-(\d{2})-(\d{4})$/.exec(v) ?? (bareAllowed ? /^(\d{3})(\d{2})(\d{4})$/.exec(v) : null);
  if (!m) return false;
  const [area, group, serial] = [m[1]!, m[2]!, m[3]!];
  return area !== '000' && area !== '666' && area[0] !== '9' && group !== '00' && serial !== '0000';
}

/**
 * Any of the national ids above. Bare 9- and 11-digit runs are ambiguous (amounts, ids, phone
 * numbers) and count only when `bareAllowed` (the column's name says national id).
 */
export function isNationalId(v: string, bareAllowed = false): boolean {
  if (!bareAllowed && /^\d+$/.test(v)) return false;
  return isUsSsn(v, bareAllowed) || isUkNino(v) || isCpf(v) || isSpanishDniNie(v) || isFrenchNir(v) || isGermanTaxId(v);
}
