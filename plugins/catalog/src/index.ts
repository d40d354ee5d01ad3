import { definePlugin } from '@basin/core';

export default definePlugin({
  name: 'catalog',
  register() {
    // placeholder: filled by its issue
  },
});
