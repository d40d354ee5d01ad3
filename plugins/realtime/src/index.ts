import { definePlugin } from '@basin/core';

export default definePlugin({
  name: 'realtime',
  register() {
    // placeholder: filled by its issue
  },
});
