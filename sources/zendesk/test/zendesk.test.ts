// Zendesk Support API as documented (developer.zendesk.com/api-reference/ticketing/ticket-management/
// incremental_exports): GET /api/v2/incremental/tickets/cursor.json?start_time= then ?cursor=,
// {tickets,after_cursor,after_url,end_of_stream}; time-based exports {ticket_events,next_page,
// end_of_stream,end_time}; ticket_fields {ticket_fields,next_page}; basic auth `email/token:TOKEN`.
import { after } from 'node:test';
import { basicCredentials, FakeVendor, runVendorSuite, type FakeRequest } from '@basin/sdk/testkit';
import source from '../src/index.js';

const TOKEN = 'zd_fake_token_7890';
const EMAIL = 'agent@example.com';
const T0 = Date.UTC(2024, 5, 1);
const PER = 100;

const iso = (i: number) => new Date(T0 + i * 60_000).toISOString().replace('.000', '');

function cursorExport(req: FakeRequest, fake: FakeVendor) {
  const all = [...fake.table('tickets')].sort((a, b) => String(a.updated_at).localeCompare(String(b.updated_at)));
  let from = 0;
  const cursor = req.query.get('cursor');
  if (cursor) from = Number(Buffer.from(cursor, 'base64').toString());
  else {
    const start = Number(req.query.get('start_time'));
    if (!req.query.has('start_time') || !Number.isFinite(start)) return { status: 400, body: { error: 'InvalidValue', description: 'start_time is required' } };
    from = all.findIndex((t) => Date.parse(String(t.updated_at)) / 1000 >= start);
    if (from < 0) from = all.length;
  }
  const page = all.slice(from, from + PER);
  const end = from + PER >= all.length;
  const next = Buffer.from(String(from + page.length)).toString('base64');
  return { body: { tickets: page, after_cursor: next, after_url: `${req.url.origin}${req.path}?cursor=${next}`, before_cursor: null, end_of_stream: end } };
}

function timeExport(table: string, field: string) {
  return (req: FakeRequest, fake: FakeVendor) => {
    const start = Number(req.query.get('start_time') ?? NaN);
    if (!Number.isFinite(start)) return { status: 400, body: { error: 'InvalidValue' } };
    const rows = fake.table(table).filter((r) => Date.parse(String(r[field])) / 1000 >= start);
    const page = rows.slice(0, PER);
    const end = rows.length <= PER;
    const endTime = page.length ? Math.floor(Date.parse(String(page.at(-1)![field])) / 1000) : start;
    return { body: { [table]: page, next_page: `${req.url.origin}${req.path}?start_time=${end ? endTime : endTime + 1}`, end_of_stream: end, end_time: endTime, count: page.length } };
  };
}

const fake = new FakeVendor({
  routes: {
    'GET /api/v2/incremental/tickets/cursor.json': cursorExport,
    'GET /api/v2/incremental/ticket_events.json': timeExport('ticket_events', 'created_at'),
    'GET /api/v2/incremental/ticket_metric_events.json': timeExport('ticket_metric_events', 'time'),
    'GET /api/v2/ticket_fields.json': (_req, f) => ({ body: { ticket_fields: f.table('ticket_fields'), next_page: null, previous_page: null, count: f.table('ticket_fields').length } }),
  },
  authorize: (req) => {
    const c = basicCredentials(req);
    return c?.user === `${EMAIL}/token` && c.password === TOKEN;
  },
  unauthorized: () => ({ status: 401, body: { error: 'Couldn\'t authenticate you' } }),
});
await fake.start();
after(() => fake.stop());

const ticket = (i: number) => ({ id: i + 1, subject: `Ticket ${i}`, status: 'open', requester_id: 7, via: { channel: 'email', source: { from: { address: 'x@example.com' } } }, tags: ['a'], created_at: iso(i), updated_at: iso(i) });

runVendorSuite({
  source,
  fake,
  config: () => ({ base_url: fake.url, subdomain: 'acme', email: EMAIL, resources: ['tickets', 'ticket_fields', 'ticket_events'] }),
  resources: ['tickets', 'ticket_fields', 'ticket_events'],
  env: { ZENDESK_API_TOKEN: TOKEN },
  secretEnv: 'ZENDESK_API_TOKEN',
  seed() {
    for (let i = 0; i < 260; i++) fake.table('tickets').push(ticket(i));
    fake.table('ticket_fields').push({ id: 1, type: 'subject', title: 'Subject', active: true }, { id: 2, type: 'tagger', title: 'Product', active: true, custom_field_options: [{ name: 'A', value: 'a' }] });
    for (let i = 0; i < 30; i++) fake.table('ticket_events').push({ id: 500 + i, ticket_id: i + 1, event_type: 'Change', created_at: iso(i), child_events: [] });
  },
  incremental: {
    resource: 'tickets',
    addNewer: () => void fake.table('tickets').push(ticket(5000)),
    reads: (req) => req.path === '/api/v2/incremental/tickets/cursor.json' && req.query.has('start_time'),
    asksOnlyNewer: (req) => Number(req.query.get('start_time')) >= Date.parse(iso(259)) / 1000,
  },
  addFieldMidStream() {
    for (const t of fake.table('tickets')) if (Number(t.id) > 150) t.satisfaction_rating = { score: 'good' };
    return { resource: 'tickets', column: 'satisfaction_rating__score' };
  },
  missingRequired: { config: { subdomain: 'acme' }, path: '/email' },
});
