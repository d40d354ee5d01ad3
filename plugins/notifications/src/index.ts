import { definePlugin } from '@basin/core';

export default definePlugin({
  name: 'notifications',
  register() {
    // placeholder: filled by its issue
  },
});
