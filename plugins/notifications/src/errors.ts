import { defineErrors } from '@basin/core';

/** The notifications plugin's error codes. */
export const notificationErrors = defineErrors('notifications', {
  no_webhooks: { status: 400, message: 'No webhooks are configured: add them under notifications.webhooks in .basin/schedules.yml and reload.' },
});
