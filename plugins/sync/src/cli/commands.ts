import { addExamples, type CliContext } from '@basin/core';
import { registerSyncCommand } from './sync-command.js';

export function registerSyncCommands(cli: CliContext): void {
  registerSyncCommand(cli);
  addExamples(cli.program, {
    sync: ['basin sync', 'basin sync shop crm --full-refresh', 'BASIN_API_KEY=basin_ak_... basin sync   # while a server runs'],
  });
}
