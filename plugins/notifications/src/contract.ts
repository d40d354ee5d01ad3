import { createServiceRef } from '@basin/core';
import type { Notifier } from './notifier.js';

/** The public face of the notifications plugin (`@basin/plugin-notifications/contract`). */
export type { Notifier } from './notifier.js';

/** turns bus events into webhook notifications */
export const notifierRef = createServiceRef<Notifier>({ id: 'notifier' });

/** Bus event the notifier emits when a scheduled source goes stale (once per stale period). */
export interface SyncStale {
  source: string;
  schedule: string;
  stale_hours: number;
  last_success_at: string | null;
}

declare module '@basin/core' {
  interface BasinEvents {
    sync_stale: SyncStale;
  }
}
