import type { IncomingHttpHeaders } from 'node:http';

/** strips the IPv4-mapped IPv6 form so 127.0.0.1 and ::ffff:127.0.0.1 are one address */
export const normalizeIp = (ip: string): string => (ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip);

export const isLoopbackIp = (ip: string): boolean => {
  const n = normalizeIp(ip);
  return n === '::1' || n === '127.0.0.1';
};

/**
 * The client's address: the direct peer, unless that peer is a trusted proxy, in which case the
 * right-most X-Forwarded-For entry that is not itself a trusted proxy (DECISIONS §2).
 */
export function clientIp(peer: string, headers: IncomingHttpHeaders, trusted: readonly string[]): string {
  const direct = normalizeIp(peer || '');
  if (!trusted.length || !trusted.map(normalizeIp).includes(direct)) return direct;
  const xff = headers['x-forwarded-for'];
  const hops = (Array.isArray(xff) ? xff.join(',') : xff ?? '').split(',').map((s) => normalizeIp(s.trim())).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) if (!trusted.includes(hops[i]!)) return hops[i]!;
  return hops[0] ?? direct;
}

/** scheme and host the browser used; forwarded ones only from a trusted proxy */
export function ownOrigin(peer: string, headers: IncomingHttpHeaders, encrypted: boolean, trusted: readonly string[]): string {
  const fromProxy = trusted.map(normalizeIp).includes(normalizeIp(peer || ''));
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v)?.split(',')[0]?.trim();
  const proto = (fromProxy && first(headers['x-forwarded-proto'])) || (encrypted ? 'https' : 'http');
  const host = (fromProxy && first(headers['x-forwarded-host'])) || headers.host || 'localhost';
  return `${proto}://${host}`;
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    if (!k || k in out) continue;
    try {
      out[k] = decodeURIComponent(part.slice(i + 1).trim());
    } catch {
      out[k] = part.slice(i + 1).trim();
    }
  }
  return out;
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const h = headers.authorization;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(h ?? '');
  return m?.[1];
}
