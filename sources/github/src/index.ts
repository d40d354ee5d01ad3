import { declareSource, Type } from '@basin/sdk';

const RESOURCES = ['issues', 'pull_requests', 'reactions', 'stargazers', 'repo_events'];
// GitHub's own rules: owners are letters, digits and single hyphens; repository names add `.` and `_`
const OWNER = '^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$';
const REPO = '^[A-Za-z0-9._-]{1,100}$';

/** GitHub (SPEC: code hosting). Manifest only; the runtime comes in a later release. */
export default declareSource({
  type: 'github',
  title: 'GitHub',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      access_token_env: Type.String({ minLength: 1, default: 'GITHUB_TOKEN', description: 'name of the environment variable holding the access token' }),
      owner: Type.String({ pattern: OWNER, description: 'user or organisation owning the repository' }),
      name: Type.String({ pattern: REPO, description: 'repository name' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  resources: RESOURCES.map((name) => ({ name, primaryKey: ['id'] })),
  defaultResources: RESOURCES,
});
