/**
 * What the server log must never show, beyond the header and field paths pino already redacts
 * (REDACT_PATHS): one-time tokens in request URLs, and secret values a plugin knows of (the sync
 * plugin registers the credentials its sources used, with every encoding masked).
 */

/** query parameters whose value is a credential or a one-time token */
const SECRET_PARAMS = /^(token|code|state|key|api_key|apikey|access_token|refresh_token|id_token|secret|client_secret|password|signature|sig)$/i;
/** path segments that carry a token: /invite/<token>, /api/auth/invite/<token>, /reset/<token> */
const TOKEN_PATH = /(\/(?:invite|reset|setup|accept-invite)\/)[^/?#]+/gi;

/** A request URL fit for a log line: tokens in the path and credential parameters replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const pathPart = (q < 0 ? url : url.slice(0, q)).replace(TOKEN_PATH, '$1[redacted]');
  if (q < 0) return pathPart;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((kv) => {
      const eq = kv.indexOf('=');
      const name = decodeSafe(eq < 0 ? kv : kv.slice(0, eq));
      return eq >= 0 && SECRET_PARAMS.test(name) ? `${kv.slice(0, eq)}=[redacted]` : kv;
    })
    .join('&');
  return `${pathPart}?${query}`;
}

function decodeSafe(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

type Redactor = (text: string) => string;
const redactors = new Set<Redactor>();

/** Adds a function applied to every log message and error text; returns its removal. */
export function addLogRedactor(fn: Redactor): () => void {
  redactors.add(fn);
  return () => redactors.delete(fn);
}

export function redactLogText(text: string): string {
  let out = text;
  for (const r of redactors) out = r(out);
  return out;
}

function redactValue(v: unknown): unknown {
  if (typeof v === 'string') return redactLogText(v);
  if (v instanceof Error) {
    const copy = { type: v.name, message: redactLogText(v.message), stack: v.stack ? redactLogText(v.stack) : undefined } as Record<string, unknown>;
    for (const [k, x] of Object.entries(v)) if (!(k in copy)) copy[k] = typeof x === 'string' ? redactLogText(x) : x;
    return copy;
  }
  return v;
}

/** pino options: the request serializer with redacted URLs, and a hook masking registered secrets in every line */
export const loggerRedaction = {
  serializers: {
    req(req: { method?: string; url?: string; hostname?: string; host?: string; ip?: string; socket?: { remotePort?: number } }) {
      return { method: req.method, url: redactUrl(req.url ?? ''), host: req.host ?? req.hostname, remoteAddress: req.ip, remotePort: req.socket?.remotePort };
    },
  },
  hooks: {
    logMethod(this: unknown, args: unknown[], method: (...a: unknown[]) => void) {
      if (redactors.size === 0) return method.apply(this, args);
      const out = args.map((a) => {
        if (a && typeof a === 'object' && !(a instanceof Error) && !Array.isArray(a)) {
          const o: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(a)) o[k] = redactValue(v);
          return o;
        }
        return redactValue(a);
      });
      return method.apply(this, out);
    },
  },
};
