import type { DriftChange } from './drift.js';
import type { PiiFinding } from './pii/types.js';

declare module '@basin/core' {
  interface BasinEvents {
    schema_drift_detected: { source: string; table: string; changes: DriftChange[]; sync_id: string | null };
    pii_detected: { source: string; table: string; findings: PiiFinding[] };
  }
}
export {};
