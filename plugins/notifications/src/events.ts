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
