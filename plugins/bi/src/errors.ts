import { defineErrors } from '@basin/core';

/** The bi plugin's error codes (the /bi proxy). */
export const biErrors = defineErrors('bi', {
  bi_unavailable: { status: 503, message: (a: { state: string; error?: string }) => `Dashboards are not available (Superset is ${a.state}${a.error ? `: ${a.error}` : ''}); see /api/health/platform.` },
});
