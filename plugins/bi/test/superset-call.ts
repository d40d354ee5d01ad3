// A test's HTTP caller through Basin's proxy to Superset: each Basin user by API key, with the
// bi.SESSION cookie Superset set for that user kept (Superset's CSRF token belongs to the session).

export interface SupersetResponse {
  status: number;
  /** the parsed JSON body, null for HTML */
  body: any;
  text: string;
  headers: Headers;
}

/** `baseUrl` is read at each call (the server starts after the caller is made); it ends with a slash or not as the paths need */
export function supersetCaller(baseUrl: () => string, keys: Record<string, string>) {
  const jar: Record<string, string> = {};
  return async function call(who: string, method: string, p: string, body?: unknown, extra: Record<string, string> = {}): Promise<SupersetResponse> {
    const res = await fetch(`${baseUrl()}${p}`, {
      method,
      redirect: 'manual',
      headers: {
        authorization: `Bearer ${keys[who]}`,
        ...(jar[who] ? { cookie: jar[who] } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...extra,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('bi.SESSION='));
    if (set) jar[who] = set.split(';')[0]!;
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      /* HTML */
    }
    return { status: res.status, body: json, text, headers: res.headers };
  };
}
