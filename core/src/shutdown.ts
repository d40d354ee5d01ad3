import type { BasinApp } from './app.js';

/**
 * Closes the app (plugins stop, requests drain, stores close) but waits at most `deadlineMs`:
 * idle keep-alive connections are closed at once, and when the deadline passes every remaining
 * connection is cut. Returns false when the deadline passed; the caller then exits the process,
 * which releases the warehouse, the state database and the project lock.
 */
export async function closeWithDeadline(app: BasinApp, deadlineMs: number): Promise<boolean> {
  app.http.server.closeIdleConnections?.();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), deadlineMs)));
  const closed = app.close().then(
    () => true,
    () => true,
  );
  const clean = await Promise.race([closed, deadline]);
  clearTimeout(timer);
  if (!clean) app.http.server.closeAllConnections?.();
  return clean;
}
