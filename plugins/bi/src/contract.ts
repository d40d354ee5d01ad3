import { createServiceRef } from '@basin/core';
import type { SupersetStatus, SupersetSupervisor } from './supervisor.js';

/** The public face of the bi plugin (`@basin/plugin-bi/contract`). */
export type { SupersetState, SupersetStatus } from './supervisor.js';

/** Superset's supervisor: its status, and start() for an embedded app (`basin start` starts it itself). */
export const biSupervisorRef = createServiceRef<Pick<SupersetSupervisor, 'start' | 'stop' | 'current'> & { readonly current: SupersetStatus }>({ id: 'biSupervisor' });
