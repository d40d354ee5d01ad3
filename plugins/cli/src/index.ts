import { definePlugin } from '@basin/core';
import { registerCommands } from './commands.js';

export * from './scaffold.js';

/** The project lifecycle commands: init, start, config validate. */
export default definePlugin({
  name: 'cli',
  commands: registerCommands,
});
