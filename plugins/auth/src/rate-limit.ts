/**
 * Fixed-window request counters per (bucket, client IP), in memory. Windows follow Basin's clock so
 * tests can move time. Retry-After is the time left in the current window.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private sweeps = 0;

  constructor(private readonly now: () => number) {}

  /** counts one request; returns seconds to wait when over the limit, 0 when allowed */
  hit(bucket: string, ip: string, limit: number, windowSeconds: number): number {
    const now = this.now();
    const key = `${bucket}\u0000${ip}`;
    const ms = windowSeconds * 1000;
    let w = this.windows.get(key);
    if (!w || now - w.start >= ms) this.windows.set(key, (w = { start: now, count: 0 }));
    w.count++;
    if (++this.sweeps % 1000 === 0) this.sweep(now, ms);
    if (w.count <= limit) return 0;
    return Math.max(1, Math.ceil((w.start + ms - now) / 1000));
  }

  reset(): void {
    this.windows.clear();
  }

  private sweep(now: number, ms: number): void {
    for (const [k, w] of this.windows) if (now - w.start >= ms) this.windows.delete(k);
  }
}
