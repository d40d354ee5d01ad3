import { createServiceRef } from '@basin/core';
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
