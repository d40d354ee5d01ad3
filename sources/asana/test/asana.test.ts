// Asana API 1.0 as documented (developers.asana.com/reference: getTasks "project", "modified_since",
// "opt_fields"; getProjects, getSectionsForProject, getStoriesForTask; "Pagination": limit + offset,
// {"data":[...],"next_page":{"offset","path","uri"}}; 401 {"errors":[{"message":"Not Authorized"}]}).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearerToken, collectRead, createTestContext, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = '2/1200000000/1200000001:fakeasanapat';
const WS = '1100000000000';
const iso = (i: number) => new Date(Date.UTC(2024, 3, 1) + i * 60_000).toISOString();

function paged(req: FakeRequest, rows: Record<string, unknown>[]) {
  const limit = Number(req.query.get('limit') ?? 50);
  if (limit > 100) return { status: 400, body: { errors: [{ message: 'limit: Must be between 1 and 100' }] } };
  const from = Number(req.query.get('offset') ?? 0);
  const more = from + limit < rows.length;
  return { body: { data: rows.slice(from, from + limit), next_page: more ? { offset: String(from + limit), path: `${req.path}?offset=${from + limit}`, uri: '' } : null } };
}

const fake = new FakeVendor({
  routes: {
    'GET /workspaces': (req, f) => paged(req, f.table('workspaces')),
    'GET /projects': (req, f) => (req.query.get('workspace') === WS ? paged(req, f.table('projects')) : { status: 400, body: { errors: [{ message: 'workspace: Missing input' }] } }),
    'GET /workspaces/:ws/teams': (req, f) => paged(req, f.table('teams')),
    'GET /users': (req, f) => paged(req, f.table('users')),
    'GET /tags': (req, f) => paged(req, f.table('tags')),
    'GET /projects/:gid/sections': (req, f) => paged(req, f.table('sections').filter((s) => s.project === req.params.gid)),
    'GET /tasks': (req, f) => {
      const project = req.query.get('project');
      if (!project) return { status: 400, body: { errors: [{ message: 'Must specify exactly one of project, tag, section, user task list, or assignee + workspace' }] } };
      const since = req.query.get('modified_since');
      const rows = f.table('tasks').filter((t) => t.project === project && (!since || String(t.modified_at) >= since)).map(({ project: _p, ...t }) => t);
      return paged(req, rows);
    },
    'GET /tasks/:gid/stories': (req, f) => paged(req, f.table('stories').filter((s) => s.task === req.params.gid)),
  },
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 401, body: { errors: [{ message: 'Not Authorized' }] } }),
});
await fake.start();
after(() => fake.stop());

const task = (project: string, i: number) => ({ gid: `${project}${i}`, project, name: `Task ${i}`, resource_type: 'task', completed: false, created_at: iso(i), modified_at: iso(i), assignee: { gid: '1', name: 'A' }, tags: [] });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, workspace: WS }),
  env: { ASANA_ACCESS_TOKEN: TOKEN },
  secretEnv: 'ASANA_ACCESS_TOKEN',
  seed() {
    fake.table('workspaces').push({ gid: WS, name: 'Acme', resource_type: 'workspace' });
    fake.table('projects').push({ gid: '201', name: 'Launch', archived: false, team: { name: 'Eng' } }, { gid: '202', name: 'Ops', archived: false, team: { name: 'Ops' } });
    fake.table('teams').push({ gid: '301', name: 'Eng' });
    fake.table('users').push({ gid: '1', name: 'A', email: 'a@example.com' });
    fake.table('tags').push({ gid: '401', name: 'urgent' });
    fake.table('sections').push({ gid: '501', name: 'To do', project: '201' }, { gid: '502', name: 'Done', project: '202' });
    for (let i = 0; i < 230; i++) fake.table('tasks').push(task('201', i));
    for (let i = 0; i < 3; i++) fake.table('tasks').push(task('202', i));
  },
  incremental: {
    resource: 'tasks',
    addNewer: () => void fake.table('tasks').push(task('201', 5000)),
    reads: (req) => req.path === '/tasks',
    asksOnlyNewer: (req) => (req.query.get('modified_since') ?? '') >= (req.query.get('project') === '201' ? iso(229) : iso(2)),
  },
  addFieldMidStream() {
    for (const t of fake.table('tasks')) if (t.project === '201' && Number(String(t.gid).slice(3)) >= 150) t.due_on = '2024-12-24';
    return { resource: 'tasks', column: 'due_on' };
  },
  missingRequired: { config: {}, path: '/workspace' },
});

test('asana: stories are read per task of every project', async () => {
  fake.empty();
  fake.clearFaults();
  fake.table('projects').push({ gid: '201', name: 'Launch' });
  fake.table('tasks').push(task('201', 1), task('201', 2));
  fake.table('stories').push({ gid: 's1', task: '2011', text: 'created', created_at: iso(1) }, { gid: 's2', task: '2012', text: 'done', created_at: iso(2) });
  const ctx = createTestContext(source, { base_url: fake.url, workspace: WS, resources: ['stories'] }, { env: { ASANA_ACCESS_TOKEN: TOKEN } });
  const r = await collectRead(source, ctx, []);
  assert.deepEqual(r.records.stories!.map((s) => [s.gid, s.task_gid]), [['s1', '2011'], ['s2', '2012']]);
});
