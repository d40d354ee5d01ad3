import { addExamples, type CliContext } from '@basin/core';
import { registerSourceAdd } from './source-add.js';
import { registerSyncCommand } from './sync-command.js';

export function registerSyncCommands(cli: CliContext): void {
  registerSyncCommand(cli);
  registerSourceAdd(cli);
  addExamples(cli.program, {
    sync: ['basin sync', 'basin sync shop crm --full-refresh', 'BASIN_API_KEY=basin_ak_... basin sync   # while a server runs'],
    'source add': ['basin source add   # asks for the type, name and each setting', 'basin source add --type local_files --name drop --set directory=data/in'],
  });
}
