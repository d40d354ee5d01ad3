import crypto from 'node:crypto';
import { migrate, type Clock, type SqliteDb } from '@basin/core';
import { maskUrl } from './mask.js';

export interface Webhook {
  name: string;
  url: string;
  format: 'generic' | 'chat';
}

export interface DeliveryResult {
  webhook: string;
  url: string;
  format: string;
  event: string;
  ok: boolean;
  status_code: number | null;
  attempts: number;
  error: string | null;
}

/** Delivery tuning; tests shorten the backoff. */
export interface DeliveryPolicy {
  timeoutMs: number;
  maxAttempts: number;
  backoffMs: number;
}
export const DEFAULT_POLICY: DeliveryPolicy = { timeoutMs: 10_000, maxAttempts: 4, backoffMs: 1000 };

const MIGRATIONS = [
  `CREATE TABLE notif_deliveries (
     id TEXT PRIMARY KEY, webhook TEXT NOT NULL, url TEXT NOT NULL, format TEXT NOT NULL, event TEXT NOT NULL,
     ok INTEGER NOT NULL, status_code INTEGER, attempts INTEGER NOT NULL, error TEXT, created_at TEXT NOT NULL);
   CREATE INDEX notif_deliveries_created ON notif_deliveries (created_at);
   CREATE TABLE notif_source_state (source TEXT PRIMARY KEY, first_seen_at TEXT NOT NULL, last_success_at TEXT, stale_notified_at TEXT);`,
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * POSTs JSON to webhooks: per-attempt timeout, retries with exponential backoff on network errors,
 * timeouts, 429 and 5xx (never on other 4xx), and one delivery-log row per delivery (masked URL).
 */
export class Deliverer {
  readonly policy: DeliveryPolicy = { ...DEFAULT_POLICY };

  constructor(private readonly db: SqliteDb, private readonly clock: Clock, private readonly userAgent: string) {
    migrate(db, 'notifications', MIGRATIONS);
  }

  async deliver(hook: Webhook, event: string, body: unknown): Promise<DeliveryResult> {
    const json = JSON.stringify(body);
    let attempts = 0;
    let status: number | null = null;
    let error: string | null = null;
    let ok = false;
    while (attempts < this.policy.maxAttempts) {
      attempts++;
      let retryable = false;
      try {
        const res = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': this.userAgent },
          body: json,
          redirect: 'manual',
          signal: AbortSignal.timeout(this.policy.timeoutMs),
        });
        status = res.status;
        await res.body?.cancel().catch(() => {});
        if (res.status >= 200 && res.status < 300) {
          ok = true;
          error = null;
          break;
        }
        error = `receiver answered HTTP ${res.status}`;
        retryable = res.status >= 500 || res.status === 429;
      } catch (e) {
        status = null;
        const err = e as Error & { cause?: { code?: string } };
        error = err.name === 'TimeoutError' ? `no answer within ${this.policy.timeoutMs} ms` : `network error: ${err.cause?.code ?? err.message}`;
        retryable = true;
      }
      if (!retryable || attempts >= this.policy.maxAttempts) break;
      await sleep(this.policy.backoffMs * 2 ** (attempts - 1));
    }
    const result: DeliveryResult = { webhook: hook.name, url: maskUrl(hook.url), format: hook.format, event, ok, status_code: status, attempts, error };
    this.db
      .prepare('INSERT INTO notif_deliveries (id, webhook, url, format, event, ok, status_code, attempts, error, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)')
      .run(`dlv_${crypto.randomBytes(8).toString('hex')}`, result.webhook, result.url, result.format, event, ok ? 1 : 0, status, attempts, error, this.clock.now().toISOString());
    return result;
  }

  log(limit: number, offset: number): { items: Array<DeliveryResult & { id: string; created_at: string }>; total: number } {
    // a row is a DeliveryResult with `ok` stored as 0/1
    const rows = this.db.prepare('SELECT * FROM notif_deliveries ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?').all(limit, offset) as Array<Omit<DeliveryResult, 'ok'> & { id: string; created_at: string; ok: number }>;
    const { n } = this.db.prepare('SELECT COUNT(*) AS n FROM notif_deliveries').get() as { n: number };
    return { items: rows.map((r) => ({ ...r, ok: r.ok === 1 })), total: n };
  }
}
