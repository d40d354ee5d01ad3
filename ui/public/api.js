// Small fetch wrapper: JSON in and out, the CSRF header on writes, errors as {status, code, message, details}.
export class ApiError extends Error {
  constructor(status, body, retryAfter) {
    super(body?.error?.message ?? body?.message ?? `The server answered HTTP ${status}.`);
    this.status = status;
    this.code = body?.error?.code ?? 'http_error';
    this.details = body?.error?.details;
    const wait = Number(this.details?.retry_after_seconds ?? retryAfter);
    this.retryAfter = Number.isFinite(wait) && wait > 0 ? wait : null;
  }
}

export async function api(path, { method = 'GET', body, headers: extra } = {}) {
  const headers = { accept: 'application/json', ...extra };
  if (method !== 'GET') headers['x-requested-with'] = 'XMLHttpRequest';
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: 'same-origin' });
  const text = await res.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = { error: { message: text.slice(0, 300) } };
  }
  if (!res.ok) throw new ApiError(res.status, data, res.headers.get('retry-after'));
  return data;
}

/** Uploads one file as multipart with upload progress (fetch has none): onProgress(0..1). */
export function upload(path, file, onProgress) {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.setRequestHeader('x-requested-with', 'XMLHttpRequest');
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress?.(e.loaded / e.total);
    xhr.onload = () => {
      let data = null;
      try {
        data = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        data = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data);
      else reject(new ApiError(xhr.status, data, xhr.getResponseHeader('retry-after')));
    };
    xhr.onerror = () => reject(new ApiError(0, { error: { message: 'The upload could not reach the server; check the connection and try again.' } }));
    const form = new FormData();
    form.append('file', file);
    xhr.send(form);
  });
}
