import { defineErrors } from '@basin/core';

/** The auth plugin's error codes (DECISIONS §2 body); its routes list the ones they answer with. */
export const authErrors = defineErrors('auth', {
  password_too_short: { code: 'weak_password', status: 400, message: (a: { min: number }) => `The password must be at least ${a.min} characters long.` },
  password_too_common: { code: 'weak_password', status: 400, message: 'This password is too common; choose one that is harder to guess.' },
  invalid_credentials: { status: 401, message: 'The e-mail or password is incorrect.' },
  last_admin: { status: 409, message: 'This is the last active admin; make another user admin first.' },
  login_locked: { status: 429, message: 'Too many failed logins for this e-mail from your address; try again later.' },
  invalid_login_code: { code: 'invalid_code', status: 401, message: 'The code is not valid.' },
  invalid_code: { status: 400, message: (a: { hint?: string }) => `The code is not valid${a.hint ?? ''}.` },
  wrong_current_password: { code: 'invalid_password', status: 400, message: 'The current password is incorrect.' },
  invalid_password: { status: 400, message: 'The password is incorrect.' },
  password_reused: { status: 400, message: 'The new password must differ from the current one.' },
  invalid_token: { status: 400, message: (a: { reason: string }) => a.reason },
  already_set_up: { status: 409, message: 'Basin already has users; log in instead.' },
  user_exists: { status: 409, message: (a: { email: string }) => `A user with e-mail ${a.email} already exists.` },
  not_invited: { status: 409, message: 'This user has already accepted the invite; use reset-password instead.' },
  not_accepted: { status: 409, message: 'This user has not accepted the invite yet; use reinvite instead.' },
  not_inactive: { status: 409, message: 'Only a deactivated user can be reactivated.' },
  oauth_not_configured: { status: 400, message: (a: { provider: string }) => `OAuth provider ${a.provider} has no issuer; set auth.oauth_providers.${a.provider}.issuer.` },
  '2fa_already_enabled': { status: 409, message: 'Two-factor authentication is already enabled; disable it first to set it up again.' },
  '2fa_not_started': { status: 400, message: 'Start with POST /api/auth/2fa/setup.' },
  '2fa_not_pending': { status: 400, message: 'No second factor is pending for this session.' },
  '2fa_not_enabled': { status: 400, message: 'Two-factor authentication is not enabled.' },
  auth_disabled: { status: 409, message: 'Authentication is disabled for this project; enable it with "basin auth enable".' },
  session_required: { status: 400, message: 'This action needs a browser session, not an API key.' },
});
