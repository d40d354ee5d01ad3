import { grantedFrom, type PermissionSpec } from '@basin/core';

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const notebookPermissions = {
  view: { name: 'notebooks.view', roles: grantedFrom.viewer },
  execute: { name: 'notebooks.execute', roles: grantedFrom.editor },
  manage: { name: 'notebooks.manage', roles: grantedFrom.editor },
} satisfies Record<string, PermissionSpec>;

/** This plugin's settings of the `platform` section; their schema and SPEC defaults are in its package.json (`basin.platform`). */
declare module '@basin/core' {
  interface PlatformSettings {
    notebook_port: number;
  }
}
