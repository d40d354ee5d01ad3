// One Basin API call by API key, for the notebooks tests: the body parsed when it is JSON, else the text.

/** `baseUrl` ends with a slash; `p` may start with one */
export async function callApi(baseUrl: string, key: string, method: string, p: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  const res = await fetch(`${baseUrl}${p.replace(/^\//, '')}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any = text;
  try {
    json = JSON.parse(text);
  } catch {
    /* HTML */
  }
  return { status: res.status, body: json, text };
}
