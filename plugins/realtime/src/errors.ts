import { defineErrors } from '@basin/core';

/** The realtime plugin's error codes. */
export const realtimeErrors = defineErrors('realtime', {
  upgrade_required: { status: 426, message: 'This is a WebSocket endpoint: connect with a WebSocket client (Upgrade: websocket).' },
});
