/** Path segments this long made of token characters are treated as secrets (chat-tool hook URLs carry them in the path). */
const TOKENISH = /^[A-Za-z0-9_\-]{16,}$/;

/**
 * A webhook URL safe to show: query-string values, userinfo and token-like path segments are
 * replaced by `***`; scheme, host and the readable path stay so users can tell hooks apart.
 */
export function maskUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return '***';
  }
  if (u.username) u.username = '***';
  if (u.password) u.password = '***';
  u.pathname = u.pathname
    .split('/')
    .map((seg) => (TOKENISH.test(decodeURIComponent(seg)) ? '***' : seg))
    .join('/');
  const params = [...u.searchParams.keys()];
  if (params.length) u.search = params.map((k) => `${encodeURIComponent(k)}=***`).join('&');
  if (u.hash) u.hash = '';
  return u.toString().replace(/%2A%2A%2A/g, '***');
}
