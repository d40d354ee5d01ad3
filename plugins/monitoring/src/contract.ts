import { createServiceRef } from '@basin/core';
import type { MetricAlert, MonitorEngine } from './engine.js';

/** The public face of the monitoring plugin (`@basin/plugin-monitoring/contract`). */
export type { MetricAlert, RunOutcome, MonitorEngine } from './engine.js';

/** runs metric monitors and stores their results */
export const monitoringRef = createServiceRef<MonitorEngine>({ id: 'monitoring' });

declare module '@basin/core' {
  interface BasinEvents {
    metric_alert: MetricAlert;
  }
}
