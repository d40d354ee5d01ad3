import { definePlugin } from '@basin/core';

export default definePlugin({
  name: 'web',
  register() {
    // placeholder: filled by its issue
  },
});
