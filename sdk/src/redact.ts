/** What a secret is replaced with in any message. */
export const REDACTED = '********';

/** Secrets shorter than this are not masked (they would mask ordinary words). */
export const MIN_SECRET_LENGTH = 4;

/**
 * Every form in which a secret can end up in a message: as is, URL-encoded (percent-encoding with
 * upper- and lower-case hex, `+` for spaces as in query strings and forms, encodeURI's lighter form),
 * JSON-escaped (inside a JSON string), and base64 / base64url (a Basic credential is registered as
 * `user:password` so its base64 form is covered).
 */
export function secretForms(secret: string): string[] {
  const known = formsCache.get(secret);
  if (known) return known;
  const forms = computeForms(secret);
  // the server log redacts every line: the forms of a secret are computed once (bounded, oldest dropped)
  if (formsCache.size >= FORMS_CACHE_MAX) formsCache.delete(formsCache.keys().next().value as string);
  formsCache.set(secret, forms);
  return forms;
}

const FORMS_CACHE_MAX = 1000;
const formsCache = new Map<string, string[]>();

function computeForms(secret: string): string[] {
  const forms = new Set<string>([secret]);
  const pct = encodeURIComponent(secret);
  forms.add(pct);
  forms.add(pct.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()));
  forms.add(new URLSearchParams({ k: secret }).toString().slice(2));
  forms.add(encodeURI(secret));
  forms.add(JSON.stringify(secret).slice(1, -1));
  forms.add(JSON.stringify(JSON.stringify(secret).slice(1, -1)).slice(1, -1));
  const b64 = Buffer.from(secret, 'utf8').toString('base64');
  forms.add(b64);
  forms.add(b64.replace(/=+$/, ''));
  forms.add(Buffer.from(secret, 'utf8').toString('base64url'));
  return [...forms].filter((f) => f.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}

/**
 * Replaces every form of every secret in `text` (the one redaction used for sync errors, source logs,
 * REST client errors and the server log). Longer forms go first, so a secret that contains another
 * is masked whole.
 */
export function redactSecrets(text: string, secrets: Iterable<string>): string {
  if (!text) return text;
  const forms: string[] = [];
  for (const s of secrets) if (s && s.length >= MIN_SECRET_LENGTH) forms.push(...secretForms(s));
  forms.sort((a, b) => b.length - a.length);
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
  return out;
}
