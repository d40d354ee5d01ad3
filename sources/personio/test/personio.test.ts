// Personio Public API v1 as documented (developer.personio.de/v1.0/reference: POST /v1/auth
// {"success":true,"data":{"token":..}}; GET /v1/company/employees offset/limit <= 100, updated_since,
// {"success":true,"metadata":{"total_elements","current_page","total_pages"},"data":[{"type":"Employee",
// "attributes":{"id":{"label","value"},...}}]}; time-offs and attendances with start_date/end_date).
import { after } from 'node:test';
import { bearerToken, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const ID = 'papi-client-id';
const SECRET = 'papi-client-secret-0123';
const TOKEN = 'personio-session-token-abc';
const iso = (i: number) => new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().slice(0, 19) + '+00:00';
const attr = (label: string, value: unknown) => ({ label, value, type: 'standard', universal_id: label.toLowerCase() });

function offsetRows(req: FakeRequest, rows: unknown[]) {
  const offset = Number(req.query.get('offset') ?? 0);
  const limit = Math.min(100, Number(req.query.get('limit') ?? 50));
  return { body: { success: true, metadata: { total_elements: rows.length, current_page: Math.floor(offset / limit), total_pages: Math.ceil(rows.length / limit) }, offset, limit, data: rows.slice(offset, offset + limit) } };
}

function pagedByPage(req: FakeRequest, rows: unknown[]) {
  if (!req.query.get('start_date') && req.path !== '/v1/company/time-off-types') return { status: 400, body: { success: false, error: { code: 400, message: 'start_date is required' } } };
  const page = Number(req.query.get('offset') ?? 0);
  const limit = Number(req.query.get('limit') ?? 200);
  return { body: { success: true, metadata: { current_page: page, total_pages: Math.max(1, Math.ceil(rows.length / limit)) }, data: rows.slice(page * limit, (page + 1) * limit) } };
}

const fake = new FakeVendor({
  routes: {
    'POST /v1/auth': (req) =>
      req.body?.client_id === ID && req.body?.client_secret === SECRET
        ? { body: { success: true, data: { token: TOKEN } } }
        : { status: 401, body: { success: false, error: { code: 0, message: 'Wrong credentials' } } },
    'GET /v1/company/employees': (req, f) => {
      const since = req.query.get('updated_since');
      return offsetRows(req, f.table('employees').filter((e) => !since || String((e.attributes as any).last_modified_at.value).slice(0, 19) >= since));
    },
    'GET /v1/company/time-off-types': (req, f) => pagedByPage(req, f.table('absence_types')),
    'GET /v1/company/time-offs': (req, f) => pagedByPage(req, f.table('absences')),
    'GET /v1/company/attendances': (req, f) => pagedByPage(req, f.table('attendances')),
  },
  public: (req) => req.path === '/v1/auth',
  authorize: (req) => bearerToken(req) === TOKEN,
  unauthorized: () => ({ status: 401, body: { success: false, error: { code: 0, message: 'The Token is invalid.' } } }),
});
await fake.start();
after(() => fake.stop());

const employee = (i: number) => ({
  type: 'Employee',
  attributes: { id: attr('ID', i + 1), first_name: attr('First name', `E${i}`), email: attr('Email', `e${i}@example.com`), department: attr('Department', { type: 'Department', attributes: { id: 1, name: 'R&D' } }), last_modified_at: attr('Last modified', iso(i)) },
});

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url }),
  env: { PERSONIO_CLIENT_ID: ID, PERSONIO_CLIENT_SECRET: SECRET },
  secretEnv: 'PERSONIO_CLIENT_SECRET',
  seed() {
    for (let i = 0; i < 230; i++) fake.table('employees').push(employee(i));
    fake.table('absence_types').push({ type: 'TimeOffType', attributes: { id: 1, name: 'Vacation', category: 'paid_vacation' } });
    fake.table('absences').push({ type: 'TimeOffPeriod', attributes: { id: 9, status: 'approved', start_date: '2024-02-01T00:00:00+01:00', end_date: '2024-02-02T00:00:00+01:00', days_count: 2, employee: { type: 'Employee', attributes: { id: attr('ID', 1) } } } });
    fake.table('attendances').push({ id: 77, type: 'AttendancePeriod', attributes: { employee: 1, date: '2024-02-01', start_time: '09:00', end_time: '17:00', break: 30, updated_at: iso(1) } });
  },
  incremental: {
    resource: 'employees',
    addNewer: () => void fake.table('employees').push(employee(5000)),
    reads: (req) => req.path === '/v1/company/employees',
    asksOnlyNewer: (req) => (req.query.get('updated_since') ?? '') >= iso(229).slice(0, 19),
  },
  addFieldMidStream() {
    for (const e of fake.table('employees').slice(150)) (e.attributes as Record<string, unknown>).cost_centers = attr('Cost centers', 'CC-1');
    return { resource: 'employees', column: 'cost_centers' };
  },
  missingRequired: { config: { client_id_env: '' }, path: '/client_id_env' },
});
