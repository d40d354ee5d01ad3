import { createServiceRef, grantedFrom, type PermissionSpec } from '@basin/core';
import type { SupersetStatus, SupersetSupervisor } from './supervisor.js';

/** The public face of the bi plugin (`@basin/plugin-bi/contract`). */
export type { SupersetState, SupersetStatus } from './supervisor.js';

/** Superset's supervisor: its status, and start() for an embedded app (`basin start` starts it itself). */
export const biSupervisorRef = createServiceRef<Pick<SupersetSupervisor, 'start' | 'stop' | 'current'> & { readonly current: SupersetStatus }>({ id: 'biSupervisor' });

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const dashboardPermissions = {
  view: { name: 'dashboard.view', roles: grantedFrom.viewer },
  create: { name: 'dashboard.create', roles: grantedFrom.editor },
  manage: { name: 'dashboard.manage', roles: grantedFrom.admin },
} satisfies Record<string, PermissionSpec>;

/** This plugin's settings of the `platform` section; their schema and SPEC defaults are in its package.json (`basin.platform`). */
declare module '@basin/core' {
  interface PlatformSettings {
    bi_port: number;
  }
}
