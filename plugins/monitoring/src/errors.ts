import { defineErrors } from '@basin/core';

/** The monitoring plugin's error codes. */
export const monitoringErrors = defineErrors('monitoring', {
  monitor_invalid: { status: 400, message: (a: { count: number; summary: string }) => `${a.count} monitor(s) in monitors.yml are invalid; nothing was run: ${a.summary}` },
});
