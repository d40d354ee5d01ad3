import { grantedFrom, type PermissionSpec } from '@basin/core';

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const queryPermissions = {
  execute: { name: 'query.execute', roles: grantedFrom.editor },
} satisfies Record<string, PermissionSpec>;
