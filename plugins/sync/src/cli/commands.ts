import type { CliContext } from '@basin/core';

export function registerSyncCommands(_cli: CliContext): void {}
