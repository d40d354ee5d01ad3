import { definePlugin } from '@basin/core';
import { registerCommands } from './commands.js';
import { registerPlatformCommands } from './cli/register.js';

export * from './scaffold.js';

/** The project lifecycle and platform commands: init, start, stop, status, logs, info, doctor, cleanup, backup, restore, login, completion. */
export default definePlugin({
  name: 'cli',
  commands(cli) {
    registerCommands(cli);
    registerPlatformCommands(cli);
  },
});
