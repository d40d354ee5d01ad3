import { declareRestSource, Type } from '@basin/sdk';

const RESOURCES = ['projects', 'sections', 'stories', 'tags', 'tasks', 'teams', 'users', 'workspaces'];
const DEFAULTS = ['workspaces', 'projects', 'sections', 'tags', 'tasks', 'teams', 'users'];
const TASK_FIELDS = 'gid,name,resource_subtype,completed,completed_at,created_at,modified_at,due_on,assignee.gid,assignee.name,notes,tags.name,memberships.section.gid,custom_fields.name,custom_fields.display_value';

/**
 * Asana API 1.0 with a personal access token, for one workspace: workspaces, projects, teams,
 * users, tags, the sections of each project, the tasks of each project (incremental per project
 * by `modified_at` with `modified_since`) and, when listed, the stories of each task. Pages by
 * `next_page.offset`. `generic_config`.
 */
export default declareRestSource({
  type: 'asana',
  title: 'Asana',
  category: 'productivity',
  authKind: 'apiKey',
  wizard: false,
  configKey: 'generic',
  configSchema: Type.Object(
    {
      workspace: Type.String({ pattern: '^\\d+$', description: 'the workspace gid' }),
      access_token_env: Type.String({ minLength: 1, default: 'ASANA_ACCESS_TOKEN', description: 'name of the environment variable holding the personal access token' }),
      resources: Type.Array(Type.Union(RESOURCES.map((r) => Type.Literal(r))), { default: DEFAULTS, minItems: 1, uniqueItems: true }),
      base_url: Type.String({ pattern: '^https?://', default: 'https://app.asana.com/api/1.0' }),
    },
    { additionalProperties: false },
  ),
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  defaultResources: DEFAULTS,
  connection: (c) => ({ baseUrl: c.base_url, auth: { kind: 'bearer', tokenEnv: c.access_token_env, field: 'access_token_env' } }),
  selected: (c) => c.resources,
  paginator: { type: 'cursor', cursor_path: 'next_page.offset', cursor_param: 'offset' },
  dataSelector: 'data',
  endpoints: [
    { name: 'workspaces', path: '/workspaces', params: { limit: 100 }, primaryKey: ['gid'] },
    { name: 'projects', path: '/projects', params: (c) => ({ workspace: c.workspace, limit: 100, opt_fields: 'gid,name,archived,color,created_at,modified_at,owner.name,team.name' }), primaryKey: ['gid'] },
    { name: 'teams', path: (c) => `/workspaces/${c.workspace}/teams`, params: { limit: 100 }, primaryKey: ['gid'] },
    { name: 'users', path: '/users', params: (c) => ({ workspace: c.workspace, limit: 100, opt_fields: 'gid,name,email' }), primaryKey: ['gid'] },
    { name: 'tags', path: '/tags', params: (c) => ({ workspace: c.workspace, limit: 100 }), primaryKey: ['gid'] },
    { name: 'sections', path: '/projects/{project_gid}/sections', params: { limit: 100 }, parent: { resource: 'projects', field: 'gid', as: 'project_gid' }, primaryKey: ['gid'] },
    {
      name: 'tasks',
      path: '/tasks',
      params: { limit: 100, opt_fields: TASK_FIELDS },
      parent: { resource: 'projects', field: 'gid', as: 'project_gid', param: 'project' },
      primaryKey: ['gid'],
      incremental: { cursorField: 'modified_at', param: 'modified_since' },
    },
    { name: 'stories', path: '/tasks/{task_gid}/stories', params: { limit: 100 }, parent: { resource: 'tasks', field: 'gid', as: 'task_gid' }, primaryKey: ['gid'] },
  ],
});
