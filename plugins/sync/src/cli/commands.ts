import type { CliContext } from '@basin/core';
import { registerSourceAdd } from './source-add.js';
import { registerSyncCommand } from './sync-command.js';

export function registerSyncCommands(cli: CliContext): void {
  registerSyncCommand(cli);
  registerSourceAdd(cli);
}
