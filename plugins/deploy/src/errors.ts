import { defineErrors } from '@basin/core';

/** The deploy plugin's error codes (initial sync), documented on its routes. */
export const deployErrors = defineErrors('deploy', {
  deploy_token_not_accepted: { status: 400, message: 'The deploy token is accepted only by /api/initial-sync/start and /api/initial-sync/status.' },
  deploy_token_invalid: { status: 401, message: 'The deploy token is not valid.' },
  deploy_token_expired: { status: 401, message: 'The deploy token has expired; an admin can issue a new one.' },
  deploy_token_used: { status: 401, message: 'The deploy token was already used to start the initial sync.' },
  initial_sync_running: { status: 409, message: 'The initial sync is already running.' },
  initial_sync_not_running: { status: 409, message: 'The initial sync is not running.' },
  sync_unavailable: { status: 400, message: 'The sync plugin is not installed, so sources cannot be synced.' },
  unknown_source: { status: 400, message: 'Unknown or disabled source(s).' },
});
