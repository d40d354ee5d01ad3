import { defineErrors } from '@basin/core';

/** The transform plugin's error codes (dbt runs). */
export const txErrors = defineErrors('transform', {
  not_running: { status: 409, message: 'That run is not queued or running.' },
});
