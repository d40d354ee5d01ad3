// GitHub REST API as documented (docs.github.com/rest: issues "List repository issues", pulls,
// reactions, activity/starring, activity/events; "Using pagination": Link rel="next"; "Rate limits":
// 403/429 with Retry-After for secondary limits; 401 {"message":"Bad credentials"}).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { bearerToken, collectRead, createTestContext, FakeVendor, runVendorSuite, type FakeReply, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'ghp_FakeToken0123456789abcdef';
const REPO = '/repos/octo-org/hello.world';

/** per_page/page with a Link header, as GitHub answers lists */
function linkPaged(req: FakeRequest, rows: Record<string, unknown>[]): FakeReply {
  const per = Math.min(100, Number(req.query.get('per_page') ?? 30));
  const page = Number(req.query.get('page') ?? 1);
  const slice = rows.slice((page - 1) * per, page * per);
  const headers: Record<string, string> = {};
  if (page * per < rows.length) {
    const next = new URL(req.url);
    next.searchParams.set('page', String(page + 1));
    headers.link = `<${next.href}>; rel="next", <${req.url.origin}${req.path}?page=${Math.ceil(rows.length / per)}>; rel="last"`;
  }
  return { headers, body: slice };
}

const fake = new FakeVendor({
  routes: {
    [`GET ${REPO}/issues`]: (req, f) => {
      const since = req.query.get('since');
      let rows = [...f.table('issues')].sort((a, b) => String(a.updated_at).localeCompare(String(b.updated_at)));
      if (since) rows = rows.filter((r) => String(r.updated_at) >= since);
      return linkPaged(req, rows);
    },
    [`GET ${REPO}/pulls`]: (req, f) => linkPaged(req, [...f.table('pulls')].sort((a, b) => String(b.updated_at).localeCompare(String(a.updated_at)))),
    [`GET ${REPO}/issues/:number/reactions`]: (req, f) => linkPaged(req, f.table('reactions').filter((r) => String(r.issue) === req.params.number)),
    [`GET ${REPO}/stargazers`]: (req, f) =>
      req.headers.accept === 'application/vnd.github.star+json' ? linkPaged(req, f.table('stargazers')) : linkPaged(req, f.table('stargazers').map((s) => s.user as Record<string, unknown>)),
    [`GET ${REPO}/events`]: (req, f) => linkPaged(req, f.table('events')),
  },
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 401, body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' } }),
  // a secondary rate limit: 403 with Retry-After
  rateLimited: (_req, s) => ({ status: 403, headers: { 'retry-after': String(s) }, body: { message: 'You have exceeded a secondary rate limit.' } }),
});
await fake.start();
after(() => fake.stop());

const day = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 3_600_000).toISOString().replace('.000', '');
const user = (i: number) => ({ login: `user${i}`, id: 1000 + i, type: 'User', site_admin: false });
const issue = (n: number) => ({ id: 500_000 + n, number: n, title: `Issue ${n}`, state: 'open', user: user(n % 7), labels: [{ id: 1, name: 'bug' }], created_at: day(n), updated_at: day(n), comments: 0 });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, owner: 'octo-org', name: 'hello.world' }),
  env: { GITHUB_TOKEN: TOKEN },
  secretEnv: 'GITHUB_TOKEN',
  seed() {
    for (let n = 1; n <= 130; n++) fake.table('issues').push(issue(n));
    // a pull request shows in the issues list too
    fake.table('issues').push({ ...issue(131), pull_request: { url: `${REPO}/pulls/131` } });
    fake.table('pulls').push({ id: 900_131, number: 131, title: 'PR', state: 'open', user: user(1), head: { ref: 'feat', sha: 'abc' }, created_at: day(131), updated_at: day(131) });
    for (let n = 1; n <= 3; n++) fake.table('reactions').push({ id: 70 + n, issue: n, content: '+1', user: user(n), created_at: day(n) });
    for (let n = 0; n < 5; n++) fake.table('stargazers').push({ starred_at: day(n), user: user(n) });
    for (let n = 0; n < 4; n++) fake.table('events').push({ id: String(3000 + n), type: 'WatchEvent', actor: { id: n, login: `user${n}` }, repo: { id: 1, name: 'octo-org/hello.world' }, payload: { action: 'started' }, public: true, created_at: day(n) });
  },
  incremental: {
    resource: 'issues',
    addNewer: () => void fake.table('issues').push(issue(200)),
    reads: (req) => req.path === `${REPO}/issues`,
    asksOnlyNewer: (req) => (req.query.get('since') ?? '') >= day(130),
  },
  addFieldMidStream() {
    for (const i of fake.table('issues')) if (Number(i.number) > 100) i.milestone = { id: 9, title: 'v1' };
    return { resource: 'issues', column: 'milestone__title' };
  },
  missingRequired: { config: { owner: 'octo-org' }, path: '/name' },
});

test('github: pull requests stay out of issues; stargazers carry starred_at; reactions name their issue', async () => {
  fake.empty();
  fake.clearFaults();
  fake.table('issues').push(issue(1), { ...issue(2), pull_request: {} });
  fake.table('reactions').push({ id: 1, issue: 1, content: 'heart', user: user(1), created_at: day(1) });
  fake.table('stargazers').push({ starred_at: day(3), user: user(3) });
  const ctx = createTestContext(source, { base_url: fake.url, owner: 'octo-org', name: 'hello.world' }, { env: { GITHUB_TOKEN: TOKEN } });
  const r = await collectRead(source, ctx, [{ name: 'issues' }, { name: 'reactions' }, { name: 'stargazers' }]);
  assert.deepEqual(r.records.issues!.map((i) => i.number), [1]);
  assert.equal(r.records.issues![0]!.user__login, 'user1');
  assert.equal(r.records.reactions![0]!.issue_number, 1);
  assert.deepEqual(r.records.stargazers![0], { starred_at: day(3), ...user(3) });
});
