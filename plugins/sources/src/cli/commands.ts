import { addExamples, type CliContext } from '@basin/core';
import { registerSourceAdd } from './source-add.js';

export function registerSourceCommands(cli: CliContext): void {
  registerSourceAdd(cli);
  addExamples(cli.program, {
    'source add': ['basin source add   # asks for the type, name and each setting', 'basin source add --type local_files --name drop --set directory=data/in'],
  });
}
