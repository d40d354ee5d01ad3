import { createServiceRef } from '@basin/core';
import type { AutoRunCoalescer } from './auto-run.js';
import type { DbtRunner } from './runner.js';
import type { StagingStore } from './staging-store.js';

/** This plugin's own services as its CLI commands and tests see them (not part of the contract). */
export const txInternal = {
  /** the registration of the contract's txRunnerRef, seen as the implementation */
  runner: createServiceRef<DbtRunner>({ id: 'txRunner' }),
  autoRun: createServiceRef<AutoRunCoalescer>({ id: 'txAutoRun' }),
  staging: createServiceRef<StagingStore>({ id: 'txStaging' }),
};
