import { createHash } from 'node:crypto';
import type { QueryValue } from './client.js';

export interface CursorOptions {
  /** record field holding the cursor (e.g. `updated_at`, `id`) */
  field: string;
  /** query parameter the API filters on (e.g. `since`); without it the cursor only filters client-side */
  param?: string;
  /** first value when there is no state and no start date */
  initialValue?: string | number;
  /** query parameter for the end of the range (sent when the run has an endDate) */
  endParam?: string;
  /** fields identifying a record (boundary de-duplication); the whole record otherwise */
  primaryKey?: string[];
}

export interface RunOptions {
  fullRefresh: boolean;
  startDate?: string;
  endDate?: string;
  lookbackDays?: number;
}

/** The state an incremental cursor commits: the largest value seen and the records seen at it. */
export interface CursorState {
  cursor: string | number;
  /** hashes of records whose cursor equals `cursor` (an inclusive `since` returns them again) */
  boundary: string[];
}

const MAX_BOUNDARY = 1000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Orders cursor values: numbers numerically, dates by time, anything else as text. */
export function compareCursor(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const sa = String(a);
  const sb = String(b);
  const da = Date.parse(sa);
  const db = Date.parse(sb);
  if (/^\d{4}-\d{2}/.test(sa) && /^\d{4}-\d{2}/.test(sb) && !Number.isNaN(da) && !Number.isNaN(db)) return da - db;
  if (/^-?\d+(\.\d+)?$/.test(sa) && /^-?\d+(\.\d+)?$/.test(sb)) return Number(sa) - Number(sb);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function minusDays(value: string | number, days: number): string | number {
  if (typeof value !== 'string' || !days) return value;
  const t = Date.parse(value);
  if (Number.isNaN(t)) return value;
  const iso = new Date(t - days * 86_400_000).toISOString();
  return DATE_ONLY.test(value) ? iso.slice(0, 10) : iso;
}

/**
 * Incremental loading by a cursor field: decides the value to ask from (state, start date,
 * lookback), filters records already loaded, and tracks the new state to commit with the data.
 */
export class IncrementalCursor {
  /** the value sent in `param` (undefined: read everything) */
  readonly start: string | number | undefined;
  private max: string | number | undefined;
  private boundary: Set<string>;
  private readonly previous: CursorState | null;
  private readonly lookback: boolean;

  constructor(
    private readonly opts: CursorOptions,
    state: Record<string, unknown> | undefined,
    private readonly run: RunOptions,
  ) {
    const prev = !run.fullRefresh && state && (typeof state.cursor === 'string' || typeof state.cursor === 'number') ? (state as unknown as CursorState) : null;
    this.previous = prev;
    this.lookback = !!prev && !!run.lookbackDays;
    const base = prev?.cursor ?? run.startDate ?? opts.initialValue;
    this.start = base !== undefined && prev ? minusDays(base, run.lookbackDays ?? 0) : base;
    this.max = prev?.cursor;
    this.boundary = new Set(prev && Array.isArray(prev.boundary) ? prev.boundary : []);
  }

  /** query parameters for the requests of this run */
  params(): Record<string, QueryValue> {
    const p: Record<string, QueryValue> = {};
    if (this.opts.param && this.start !== undefined) p[this.opts.param] = this.start;
    if (this.opts.endParam && this.run.endDate) p[this.opts.endParam] = this.run.endDate;
    return p;
  }

  private key(r: Record<string, unknown>): string {
    const v = this.opts.primaryKey?.length ? this.opts.primaryKey.map((k) => r[k]) : r;
    return createHash('sha1').update(JSON.stringify(v)).digest('base64');
  }

  /** Drops records loaded by an earlier run and remembers the largest cursor value. */
  filter(records: Record<string, unknown>[]): Record<string, unknown>[] {
    const prev = this.previous;
    const out: Record<string, unknown>[] = [];
    for (const r of records) {
      const v = r[this.opts.field] as string | number | undefined | null;
      if (v === undefined || v === null) {
        out.push(r);
        continue;
      }
      if (prev && !this.lookback) {
        const c = compareCursor(v, prev.cursor);
        if (c < 0) continue;
        if (c === 0 && this.previousBoundaryHas(r)) continue;
      }
      if (this.max === undefined || compareCursor(v, this.max) > 0) {
        this.max = v;
        this.boundary = new Set();
      }
      if (compareCursor(v, this.max) === 0 && this.boundary.size < MAX_BOUNDARY) this.boundary.add(this.key(r));
      out.push(r);
    }
    return out;
  }

  private prevBoundary: Set<string> | null = null;
  private previousBoundaryHas(r: Record<string, unknown>): boolean {
    this.prevBoundary ??= new Set(this.previous?.boundary ?? []);
    return this.prevBoundary.has(this.key(r));
  }

  /** the state to commit after the records passed to `filter` are loaded (null: nothing seen) */
  state(): CursorState | null {
    if (this.max === undefined) return this.previous ? { cursor: this.previous.cursor, boundary: [...(this.previous.boundary ?? [])] } : null;
    return { cursor: this.max, boundary: [...this.boundary] };
  }
}
