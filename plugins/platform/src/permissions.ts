import { grantedFrom, type PermissionSpec } from '@basin/core';

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const platformPermissions = {
  health_view: { name: 'health.view', roles: grantedFrom.viewer },
  logs_view: { name: 'logs.view', roles: grantedFrom.viewer },
  manage: { name: 'platform.manage', roles: grantedFrom.admin },
  config_view: { name: 'config.view', roles: grantedFrom.editor },
  config_manage: { name: 'config.manage', roles: grantedFrom.admin },
} satisfies Record<string, PermissionSpec>;

/** This plugin's settings of the `platform` section; their schema and SPEC defaults are in its package.json (`basin.platform`). */
declare module '@basin/core' {
  interface PlatformSettings {
    deployment: 'local' | 'cloud';
  }
}
