/** Environment-variable syntax for a secret's name (what shells and dotenv agree on). */
export const KEY_PATTERN = '^[A-Za-z_][A-Za-z0-9_]*$';
export const KEY_MAX = 128;

/** names that belong to the server's environment, never to `.env` (the key that seals `.env` itself) */
export const RESERVED_KEYS = new Set(['BASIN_SECRET_KEY', 'BASIN_SECRET_KEY_PREVIOUS']);

export function isValidKey(key: string): boolean {
  return key.length <= KEY_MAX && new RegExp(KEY_PATTERN).test(key);
}
