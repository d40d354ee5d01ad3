/** Deterministic generators for the PII test tables (seeded PRNG, checksum-valid and -invalid numbers). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const pick = <T>(r: () => number, xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
export const digits = (r: () => number, n: number): string => Array.from({ length: n }, () => Math.floor(r() * 10)).join('');

export function luhnCheckDigit(body: string): string {
  let sum = 0;
  let double = true;
  for (let i = body.length - 1; i >= 0; i--) {
    let d = body.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return String((10 - (sum % 10)) % 10);
}

export function cardNumber(r: () => number): string {
  const prefix = pick(r, ['4', '51', '52', '55', '2221']);
  const body = prefix + digits(r, 15 - prefix.length);
  return body + luhnCheckDigit(body);
}

/** a 16-digit number that fails the Luhn check */
export function nonLuhn16(r: () => number): string {
  const n = cardNumber(r);
  const last = (Number(n[15]) + 1 + Math.floor(r() * 8)) % 10;
  return n.slice(0, 15) + String(last);
}

export function iban(r: () => number, country = 'DE'): string {
  const bban = digits(r, 18);
  const rearranged = `${bban}${country}00`.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const c of rearranged) rem = (rem * 10 + Number(c)) % 97;
  const check = String(98 - rem).padStart(2, '0');
  return `${country}${check}${bban}`;
}

export function ssn(r: () => number): string {
  let area = 0;
  while (area === 0 || area === 666 || area >= 900) area = 1 + Math.floor(r() * 899);
  return `${String(area).padStart(3, '0')}-${String(1 + Math.floor(r() * 98)).padStart(2, '0')}-${String(1 + Math.floor(r() * 9998)).padStart(4, '0')}`;
}

const FIRST = ['James', 'Mary', 'Robert', 'Linda', 'Michael', 'Sarah', 'David', 'Emma', 'Lukas', 'Sofia', 'Wei', 'Priya', 'Olga', 'Pierre', 'Aisha'];
const LAST = ['Smith', 'Johnson', 'Garcia', 'Miller', 'Nguyen', 'Schmidt', 'Rossi', 'Tanaka', 'Kumar', 'Ivanov', 'Brown', 'Dubois', 'Patel', 'Kim', 'Larsen'];
export const personName = (r: () => number): string => `${pick(r, FIRST)} ${pick(r, LAST)}`;
export const PRODUCTS = ['Blue Widget Pro', 'Amber Desk Lamp', 'Steel Water Bottle', 'Ergo Chair', 'Carbon Bike Frame', 'Trail Running Shoe', 'Espresso Machine', 'Noise Cancelling Headphones', 'Garden Hose Reel', 'Smart Thermostat', 'Rose Scented Candle', 'Kim Chi Jar'];

export function email(r: () => number): string {
  return `${pick(r, FIRST).toLowerCase()}.${pick(r, LAST).toLowerCase()}${Math.floor(r() * 100)}@${pick(r, ['example.com', 'mail.example.org', 'corp.test'])}`;
}
export const ipv4 = (r: () => number) => [1 + Math.floor(r() * 222), Math.floor(r() * 256), Math.floor(r() * 256), 1 + Math.floor(r() * 254)].join('.');
export const ipv6 = (r: () => number) => `2001:db8:${Array.from({ length: 6 }, () => Math.floor(r() * 65536).toString(16)).join(':')}`;
export const intlPhone = (r: () => number) => `+${pick(r, ['1', '44', '49', '33'])} ${digits(r, 3)} ${digits(r, 3)} ${digits(r, 4)}`;
export const nationalPhone = (r: () => number) => `(0${digits(r, 2)}) ${digits(r, 4)}-${digits(r, 4)}`;
