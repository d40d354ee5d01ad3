import { definePlugin } from '@basin/core';

export default definePlugin({
  name: 'sync',
  register() {
    // placeholder: filled by its issue
  },
});
