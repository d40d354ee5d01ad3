import { snake } from './column-names.js';
import type { EntityType } from './types.js';

/**
 * Context that makes a weakly validated match (IP, phone, national id) unlikely to be personal: a
 * column named for versions, builds or business numbers (`firmware_version` holding `10.2.3.4`,
 * `invoice` holding `512-34-0001`), or values that are one series (shared prefix, consecutive).
 */
const BUSINESS_NAME = /(^|_)(version|ver|build|firmware|release|rev|revision|invoice|inv|sku|serial|part|model|ticket|tracking|batch|lot|order|ref|reference|code|hash|checksum|sequence|seq|factura|rechnung|nota|pedido|bestellung|commande|numero_factura)(s?)($|_)/;

export const CONTEXT_SENSITIVE: ReadonlySet<EntityType> = new Set(['ip_address', 'phone', 'national_id']);

export const businessNumberColumn = (column: string): boolean => BUSINESS_NAME.test(snake(column));

/**
 * Values that are one numbered series: most share all digits but the last four, or sorted they
 * step by small increments. Personal numbers of different people do neither.
 */
export function isSequential(values: string[]): boolean {
  const nums = values.map((v) => v.replace(/\D/g, '')).filter((d) => d.length >= 6);
  if (nums.length < 5) return false;
  const prefixes = new Map<string, number>();
  for (const d of nums) prefixes.set(d.slice(0, -4), (prefixes.get(d.slice(0, -4)) ?? 0) + 1);
  if (Math.max(...prefixes.values()) / nums.length >= 0.7) return true;
  const sorted = [...new Set(nums)].map((d) => BigInt(d)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let small = 0;
  for (let i = 1; i < sorted.length; i++) if (sorted[i]! - sorted[i - 1]! <= 10n) small++;
  return sorted.length > 1 && small / (sorted.length - 1) >= 0.7;
}
