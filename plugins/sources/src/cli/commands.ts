import type { CliContext } from '@basin/core';
import { registerSourceAdd } from './source-add.js';

export function registerSourceCommands(cli: CliContext): void {
  registerSourceAdd(cli);
}
