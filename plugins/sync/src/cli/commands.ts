import type { CliContext } from '@basin/core';
import { registerSyncCommand } from './sync-command.js';

export function registerSyncCommands(cli: CliContext): void {
  registerSyncCommand(cli);
}
