import { definePlugin } from '@basin/core';

export default definePlugin({
  name: 'transform',
  configFiles: [
    // dbt reads these itself; Basin only checks they are present
    { id: 'tx-profiles', path: 'tx/profiles.yml', format: 'presence' },
    { id: 'tx-project', path: 'tx/dbt_project.yml', format: 'presence' },
  ],
  register() {
    // dbt runs: issue "Transformations with real dbt"
  },
});
