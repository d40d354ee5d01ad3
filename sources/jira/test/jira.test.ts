// Jira Cloud REST v3 as documented (developer.atlassian.com/cloud/jira/platform/rest/v3:
// GET /rest/api/3/search/jql {issues,nextPageToken,isLast}; project/search and workflow/search
// {startAt,maxResults,total,isLast,values}; users/search a plain array; basic auth e-mail:token).
import { after } from 'node:test';
import { basicCredentials, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'ATATT3xFakeJiraToken000';
const EMAIL = 'me@example.com';

function offsetPaged(req: FakeRequest, rows: Record<string, unknown>[], plain = false) {
  const startAt = Number(req.query.get('startAt') ?? 0);
  const max = Number(req.query.get('maxResults') ?? 50);
  const values = rows.slice(startAt, startAt + max);
  if (plain) return { body: values };
  return { body: { self: req.url.href, startAt, maxResults: max, total: rows.length, isLast: startAt + max >= rows.length, values } };
}

const fake = new FakeVendor({
  routes: {
    'GET /rest/api/3/myself': () => ({ body: { accountId: 'abc', emailAddress: EMAIL } }),
    'GET /rest/api/3/search/jql': (req, f) => {
      const jql = req.query.get('jql') ?? '';
      const m = /updated >= "([^"]+)"/.exec(jql);
      let rows = [...f.table('issues')].sort((a, b) => String((a.fields as any).updated).localeCompare(String((b.fields as any).updated)));
      if (m) rows = rows.filter((r) => String((r.fields as any).updated).slice(0, 16).replace('T', ' ') >= m[1]!);
      const from = Number(req.query.get('nextPageToken') ?? 0);
      const max = Number(req.query.get('maxResults') ?? 50);
      const last = from + max >= rows.length;
      return { body: { issues: rows.slice(from, from + max), isLast: last, ...(last ? {} : { nextPageToken: String(from + max) }) } };
    },
    'GET /rest/api/3/project/search': (req, f) => offsetPaged(req, f.table('projects')),
    'GET /rest/api/3/users/search': (req, f) => offsetPaged(req, f.table('users'), true),
    'GET /rest/api/3/workflow/search': (req, f) => offsetPaged(req, f.table('workflows')),
  },
  authorize: (req) => {
    const c = basicCredentials(req);
    return c?.user === EMAIL && c.password === TOKEN;
  },
  unauthorized: () => ({ status: 401, body: 'Client must be authenticated to access this resource.' }),
});
await fake.start();
after(() => fake.stop());

const at = (i: number) => new Date(Date.UTC(2024, 4, 1) + i * 3_600_000).toISOString().replace('Z', '+0000');
const issue = (i: number) => ({ id: String(10_000 + i), key: `PROJ-${i}`, fields: { summary: `Issue ${i}`, status: { name: 'To Do' }, created: at(i), updated: at(i), labels: ['x'] } });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, subdomain: 'acme', email: EMAIL }),
  env: { JIRA_API_TOKEN: TOKEN },
  secretEnv: 'JIRA_API_TOKEN',
  seed() {
    for (let i = 0; i < 240; i++) fake.table('issues').push(issue(i));
    for (let i = 0; i < 3; i++) fake.table('projects').push({ id: String(i), key: `P${i}`, name: `Project ${i}`, projectTypeKey: 'software' });
    for (let i = 0; i < 120; i++) fake.table('users').push({ accountId: `acc-${i}`, accountType: 'atlassian', displayName: `User ${i}`, active: true });
    fake.table('workflows').push({ id: { name: 'classic', entityId: 'e1' }, description: 'Default' });
  },
  incremental: {
    resource: 'issues',
    addNewer: () => void fake.table('issues').push(issue(1000)),
    reads: (req) => req.path === '/rest/api/3/search/jql',
    asksOnlyNewer: (req) => /updated >= "2024-05-09 23:00"/.test(req.query.get('jql') ?? ''),
  },
  addFieldMidStream() {
    for (const i of fake.table('issues')) if (Number(i.id) >= 10_150) (i.fields as Record<string, unknown>).priority = { name: 'High' };
    return { resource: 'issues', column: 'fields__priority__name' };
  },
  missingRequired: { config: { subdomain: 'acme' }, path: '/email' },
});
