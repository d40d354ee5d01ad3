import { definePlugin } from '@basin/core';
import { schedulesFileSpec } from './config.js';

export * from './config.js';

export default definePlugin({
  name: 'scheduler',
  configFiles: [schedulesFileSpec],
  register() {
    // scheduler routes and jobs: issue "Schedules, webhook notifications, live events over WebSocket"
  },
});
