import { createServiceRef, grantedFrom, type PermissionSpec } from '@basin/core';
import type { AuthService } from './service.js';

/** The public face of the auth plugin (`@basin/plugin-auth/contract`); it also provides core's `authenticator`. */
export type { AuthService } from './service.js';

/** users, sessions, API keys, invites, 2FA */
export const authRef = createServiceRef<AuthService>({ id: 'auth' });

export interface AuthLogout {
  user_id: string;
  session_id: string;
}

declare module '@basin/core' {
  interface BasinEvents {
    auth_logout: AuthLogout;
  }
}

/** The permissions this plugin declares (SPEC "Roles and permissions"); other plugins guarding a route with one of them take it from here. */
export const authPermissions = {
  users_view: { name: 'users.view', roles: grantedFrom.admin },
  users_manage: { name: 'users.manage', roles: grantedFrom.admin },
  manage: { name: 'auth.manage', roles: grantedFrom.admin },
  audit_view: { name: 'audit.view', roles: grantedFrom.admin },
} satisfies Record<string, PermissionSpec>;
