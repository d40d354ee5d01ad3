import { defineErrors } from '@basin/core';

/** The secrets plugin's error codes (.env and provider OAuth), documented on its routes. */
export const secretErrors = defineErrors('secrets', {
  invalid_secret_value: { status: 400, message: 'The value cannot be written to .env.' },
  reserved_secret_key: { status: 400, message: 'This key seals .env and belongs in the server\'s environment, not in .env.' },
  secret_key_missing: { status: 400, message: 'Set BASIN_SECRET_KEY (and BASIN_SECRET_KEY_PREVIOUS when rotating) in the environment first.' },
  oauth_public_url_required: { status: 400, message: 'Provider OAuth needs the address this server is reached at: set oauth.public_url (or BASIN_PUBLIC_URL).' },
  oauth_not_supported: { status: 400, message: 'The source type does not use provider OAuth.' },
  oauth_provider_unconfigured: { status: 400, message: 'The provider\'s endpoints or client credentials are not configured.' },
  oauth_client_missing: { status: 400, message: 'The OAuth client id or secret variables are not set.' },
  oauth_needs_session: { status: 400, message: 'Connect a provider from a browser session (Settings, Secrets), not with an API key.' },
});
