// The 35 source type manifests (SPEC "sources.yml", DECISIONS §1): keys, wizard flags, categories,
// auth kinds, typed schemas with their defaults, and the not_implemented contract of vendor kinds.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Value } from '@sinclair/typebox/value';
import type { SourceDefinition } from '@basin/sdk';

const PACKAGES = [
  'local-files', 'csv', 'filesystem', 'rest-api', 'ingest-native', 'sql-database', 'scrapy',
  'stripe', 'hubspot', 'salesforce', 'github', 'slack', 'google-sheets', 'facebook-ads', 'google-analytics', 'google-ads',
  'zendesk', 'chess', 'mux', 'airtable', 'pipedrive', 'freshdesk', 'workable', 'notion', 'inbox', 'mongodb', 'pg-replication',
  'kafka', 'kinesis', 'jira', 'asana', 'shopify', 'matomo', 'strapi', 'personio',
];
const NO_WIZARD = ['csv', 'filesystem', 'sql_database', 'scrapy', 'jira', 'asana', 'shopify', 'matomo', 'strapi', 'personio'];
const VENDOR_TYPED = ['stripe', 'hubspot', 'salesforce', 'github', 'slack', 'google_sheets', 'facebook_ads', 'google_analytics', 'google_ads', 'chess'];
const VENDOR_GENERIC = ['zendesk', 'mux', 'airtable', 'pipedrive', 'freshdesk', 'workable', 'notion', 'inbox', 'mongodb', 'pg_replication', 'kafka', 'kinesis', 'jira', 'asana', 'shopify', 'matomo', 'strapi', 'personio'];
/** the 23 HTTP vendors run on the SDK's declarative REST runtime (issue 16); the rest are still manifests */
const VENDOR_HTTP = [
  'stripe', 'hubspot', 'salesforce', 'github', 'slack', 'google_sheets', 'facebook_ads', 'google_analytics', 'google_ads', 'zendesk', 'chess', 'jira',
  'shopify', 'strapi', 'mux', 'airtable', 'pipedrive', 'freshdesk', 'workable', 'notion', 'asana', 'matomo', 'personio',
];
/** database and stream kinds with a runtime (issue 17) */
const OTHER_IMPLEMENTED = ['kinesis', 'pg_replication', 'inbox', 'kafka', 'mongodb'];
const NOT_IMPLEMENTED = [...VENDOR_TYPED, ...VENDOR_GENERIC].filter((t) => !VENDOR_HTTP.includes(t) && !OTHER_IMPLEMENTED.includes(t));

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const defs = new Map<string, SourceDefinition>();
for (const dir of PACKAGES) {
  const name = `@basin/source-${dir}`;
  const mod = (await import(name)) as { default: SourceDefinition };
  defs.set(mod.default.type, mod.default);
  const pkgJson = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8'));
  assert.equal(pkgJson.basin?.type, mod.default.type, `${name}: package.json basin.type must equal the manifest's type`);
}
const def = (type: string): SourceDefinition => {
  const d = defs.get(type);
  assert.ok(d, `no manifest for ${type}`);
  return d;
};
/** What the config loader does: apply defaults, then validate. */
function check(type: string, raw: unknown): { ok: boolean; value: any } {
  const schema = def(type).configSchema;
  const value = Value.Default(schema, Value.Clone(raw));
  return { ok: Value.Check(schema, value), value };
}

test('35 distinct type keys, 25 in the wizard and exactly the 10 of DECISIONS §1 outside it', () => {
  assert.equal(defs.size, 35);
  const noWizard = [...defs.values()].filter((d) => !d.wizard).map((d) => d.type).sort();
  assert.deepEqual(noWizard, [...NO_WIZARD].sort());
  assert.equal([...defs.values()].filter((d) => d.wizard).length, 25);
});

test('10 categories and the 5 authentication kinds of SPEC', () => {
  const categories = new Set([...defs.values()].map((d) => d.category));
  assert.equal(categories.size, 10, `categories: ${[...categories].join(', ')}`);
  const auth = new Set([...defs.values()].map((d) => d.authKind));
  assert.deepEqual([...auth].sort(), ['apiKey', 'basic', 'none', 'oauth2', 'serviceAccount']);
});

test('vendor kinds: typed block or generic_config as SPEC says; every one of the 28 is implemented', () => {
  for (const t of VENDOR_TYPED) assert.equal(def(t).configKey, 'typed', t);
  for (const t of VENDOR_GENERIC) assert.equal(def(t).configKey, 'generic', t);
  for (const t of VENDOR_HTTP) assert.notEqual(def(t).implemented, false, t);
  for (const t of OTHER_IMPLEMENTED) assert.notEqual(def(t).implemented, false, t);
  assert.deepEqual(NOT_IMPLEMENTED.sort(), []);
  assert.equal(VENDOR_TYPED.length + VENDOR_GENERIC.length, 28);
  assert.equal(VENDOR_HTTP.length, 23);
});

test('every schema accepts what its defaults produce; declared default resources are known resources', () => {
  const minimal: Record<string, unknown> = {
    github: { owner: 'octo-org', name: 'hello.world' },
    google_sheets: { spreadsheet_url_or_id: '1AbC', range_names: ['Sheet1'] },
    facebook_ads: { account_id: 'act_123456' },
    google_analytics: { property_id: '123456' },
    google_ads: { property_id: '123-456-7890' },
    salesforce: { instance_url: 'https://acme.my.salesforce.com' },
    chess: { players: ['magnuscarlsen'] },
    zendesk: { subdomain: 'acme', email: 'me@example.com' },
    jira: { subdomain: 'acme', email: 'me@example.com' },
    shopify: { shop: 'acme' },
    strapi: { base_url: 'https://cms.example.com', collections: ['articles'] },
    airtable: { base_id: 'appAbCdEf12345678' },
    freshdesk: { domain: 'acme' },
    workable: { subdomain: 'acme' },
    asana: { workspace: '1100000000000' },
    matomo: { url: 'https://analytics.example.com', site_id: 1 },
  };
  for (const d of defs.values()) {
    if (d.type === 'sql_database') continue; // its own test file
    const r = check(d.type, minimal[d.type] ?? {});
    if (d.implemented === false || VENDOR_HTTP.includes(d.type)) assert.ok(r.ok, `${d.type}: ${[...Value.Errors(d.configSchema, r.value)].map((e) => `${e.path} ${e.message}`).join('; ')}`);
    const names = new Set((d.resources ?? []).map((x) => x.name));
    for (const n of d.defaultResources ?? []) assert.ok(names.has(n), `${d.type}: default resource ${n} not declared`);
  }
});

test('typed vendor defaults are SPEC\'s', () => {
  const stripe = check('stripe', {}).value;
  assert.equal(stripe.secret_key_env, 'STRIPE_SECRET_KEY');
  assert.ok(stripe.endpoints.length >= 9 && stripe.endpoints.includes('customers') && stripe.endpoints.includes('invoices'));
  assert.deepEqual(check('hubspot', {}).value, { api_key_env: 'HUBSPOT_API_KEY', resources: ['contacts', 'companies', 'deals', 'tickets'], base_url: 'https://api.hubapi.com' });
  assert.deepEqual(check('salesforce', { instance_url: 'https://x.my.salesforce.com' }).value.resources, ['account', 'contact', 'lead', 'opportunity', 'campaign']);
  assert.equal(check('github', { owner: 'o', name: 'r' }).value.access_token_env, 'GITHUB_TOKEN');
  assert.deepEqual(check('slack', {}).value, { access_token_env: 'SLACK_ACCESS_TOKEN', selected_channels: [], base_url: 'https://slack.com/api' });
  assert.equal(check('google_sheets', { spreadsheet_url_or_id: 'x', range_names: ['A'] }).value.deduplication, 'latest_only');
  const fb = check('facebook_ads', { account_id: 'act_1' }).value;
  assert.equal(fb.initial_load_past_days, 30);
  assert.deepEqual(fb.resources, ['campaigns', 'ads', 'ad_sets', 'insights']);
  assert.equal(fb.access_token_env, 'FACEBOOK_ACCESS_TOKEN');
  assert.equal(check('google_analytics', { property_id: 1 }).value.credentials_env, 'GOOGLE_ANALYTICS_CREDENTIALS');
  const ads = check('google_ads', { property_id: 1234567890 }).value;
  assert.deepEqual(ads.queries.map((q: any) => q.name), ['campaign_stats', 'ad_group_stats', 'keyword_stats', 'ad_stats', 'search_term_stats']);
  assert.deepEqual(check('zendesk', { subdomain: 'acme', email: 'me@example.com' }).value.resources, ['tickets', 'ticket_fields']);
});

test('typed vendor schemas reject bad values', () => {
  const bad: Array<[string, unknown, string]> = [
    ['facebook_ads', { account_id: '123456' }, 'account_id without act_'],
    ['facebook_ads', { account_id: 'act_1', resources: ['campaigns', 'pixels'] }, 'unknown resource'],
    ['facebook_ads', { account_id: 'act_1', initial_load_past_days: 0 }, 'zero past days'],
    ['google_sheets', { spreadsheet_url_or_id: 'x', range_names: ['A'], deduplication: 'scd2' }, 'bad deduplication enum'],
    ['google_sheets', { spreadsheet_url_or_id: 'x' }, 'range_names missing'],
    ['stripe', { start_date: '2024-13-01' }, 'month 13'],
    ['stripe', { end_date: '01/02/2024' }, 'not YYYY-MM-DD'],
    ['stripe', { endpoints: ['customers', 'widgets'] }, 'unknown endpoint'],
    ['stripe', { secret_key: 'sk_live_x' }, 'unknown key (a secret where an env name belongs)'],
    ['hubspot', { resources: ['contacts', 'leads'] }, 'unknown hubspot resource'],
    ['salesforce', { resources: [] }, 'empty resources'],
    ['github', { owner: 'o' }, 'name missing'],
    ['github', { owner: 'o', name: 'r/../x' }, 'slash in repo name'],
    ['slack', { start_date: 'yesterday' }, 'relative date where YYYY-MM-DD is required'],
    ['google_analytics', {}, 'property_id missing'],
    ['google_analytics', { property_id: '1', start_date: '90 days ago' }, 'bad relative date'],
    ['google_ads', { property_id: '12-34' }, 'bad customer id'],
    ['chess', {}, 'chess needs its players'],
    ['chess', { players: ['x'] }, 'a username of one letter'],
    ['zendesk', { subdomain: 'acme', email: 'me@example.com', resources: ['tickets', 'macros'] }, 'unknown zendesk resource'],
    ['zendesk', { resources: ['tickets'] }, 'zendesk without subdomain and email'],
    ['salesforce', {}, 'salesforce without instance_url'],
  ];
  for (const [type, raw, why] of bad) assert.equal(check(type, raw).ok, false, `${type} should reject: ${why}`);
  // and the good spellings of the same fields pass
  assert.ok(check('google_analytics', { property_id: '1', start_date: '90daysAgo' }).ok);
  assert.ok(check('google_analytics', { property_id: '1', start_date: '2024-02-29' }).ok);
  assert.ok(check('google_sheets', { spreadsheet_url_or_id: 'x', range_names: ['A'], deduplication: 'scd_type2' }).ok);
  assert.ok(check('zendesk', { resources: ['ticket_events', 'ticket_metric_events'], subdomain: 'acme', email: 'me@example.com' }).ok);
});

test('implemented generic_config kinds name an unknown key', () => {
  assert.equal(check('freshdesk', { domain: 'acme', anything: 1 }).ok, false);
});
