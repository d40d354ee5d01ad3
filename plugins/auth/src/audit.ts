import type { SqliteDb } from '@basin/core';

export interface AuditEntry {
  actor?: { id: string | null; email: string | null } | null;
  action: string;
  target?: string | null;
  ip?: string | null;
  outcome: 'success' | 'failure' | 'denied';
  details?: Record<string, unknown>;
}

export interface AuditRecord {
  id: number;
  at: string;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  target: string | null;
  ip: string | null;
  outcome: string;
  details: Record<string, unknown> | null;
}

/** Append-only log of every auth and admin action (triggers in auth.db refuse UPDATE and DELETE). */
export class AuditLog {
  constructor(private readonly db: SqliteDb, private readonly now: () => Date) {}

  record(e: AuditEntry): void {
    this.db
      .prepare('INSERT INTO auth_audit (at, actor_id, actor_email, action, target, ip, outcome, details) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(this.now().toISOString(), e.actor?.id ?? null, e.actor?.email ?? null, e.action, e.target ?? null, e.ip ?? null, e.outcome, e.details ? JSON.stringify(e.details) : null);
  }

  list(limit: number, offset: number, action?: string): { items: AuditRecord[]; total: number } {
    const where = action ? 'WHERE action = ?' : '';
    const args = action ? [action] : [];
    const total = (this.db.prepare(`SELECT count(*) AS n FROM auth_audit ${where}`).get(...args) as { n: number }).n;
    const rows = this.db.prepare(`SELECT * FROM auth_audit ${where} ORDER BY id DESC LIMIT ? OFFSET ?`).all(...args, limit, offset) as Array<AuditRecord & { details: string | null }>;
    return { items: rows.map((r) => ({ ...r, details: r.details ? JSON.parse(r.details) : null })), total };
  }
}
