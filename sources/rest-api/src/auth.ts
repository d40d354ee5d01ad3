import { SourceError, type AuthSpec } from '@basin/sdk';
import { validateRestApiConfig, type RestApiConfig } from './config.js';

/** The SDK auth spec of a rest_api block (the config was validated: required fields are there). */
export function authSpec(c: RestApiConfig): AuthSpec {
  const problems = validateRestApiConfig(c);
  if (problems.length) {
    throw new SourceError('invalid_config', `rest_api config: ${problems.map((p) => `${p.path.slice(1)}: ${p.message}`).join('; ')}`, { problems });
  }
  switch (c.auth_type) {
    case 'bearer':
      return { kind: 'bearer', tokenEnv: c.auth_token_env! };
    case 'api_key':
      return { kind: 'api_key', name: c.api_key_name!, location: c.api_key_location ?? 'header', keyEnv: c.auth_token_env! };
    case 'basic':
      return { kind: 'basic', usernameEnv: c.basic_username_env!, passwordEnv: c.basic_password_env! };
    case 'oauth2_client_credentials':
      return { kind: 'oauth2_client_credentials', tokenUrl: c.access_token_url!, clientIdEnv: c.client_id_env!, clientSecretEnv: c.client_secret_env!, scope: c.scope };
    case 'custom_header':
      return { kind: 'custom_header', name: c.auth_header_name!, valueEnv: c.auth_token_env! };
    default:
      return { kind: 'none' };
  }
}
