import { declareSource, Type } from '@basin/sdk';

// The five default reports of SPEC (campaign, ad group, keyword, ad, search term stats), in GAQL
const DEFAULT_QUERIES = [
  { name: 'campaign_stats', query: 'SELECT campaign.id, campaign.name, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM campaign' },
  { name: 'ad_group_stats', query: 'SELECT ad_group.id, ad_group.name, campaign.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM ad_group' },
  { name: 'keyword_stats', query: 'SELECT ad_group_criterion.criterion_id, ad_group_criterion.keyword.text, ad_group.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros FROM keyword_view' },
  { name: 'ad_stats', query: 'SELECT ad_group_ad.ad.id, ad_group.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros, metrics.conversions FROM ad_group_ad' },
  { name: 'search_term_stats', query: 'SELECT search_term_view.search_term, ad_group.id, segments.date, metrics.impressions, metrics.clicks, metrics.cost_micros FROM search_term_view' },
];

/** Google Ads (SPEC: search ads, OAuth). Manifest only; the runtime comes in a later release. */
export default declareSource({
  type: 'google_ads',
  title: 'Google Ads',
  category: 'marketing',
  authKind: 'oauth2',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      // the customer id, written 123-456-7890 or 1234567890 (a number when unquoted in YAML)
      property_id: Type.Union([Type.String({ pattern: '^[0-9]{3}-?[0-9]{3}-?[0-9]{4}$' }), Type.Integer({ minimum: 1 })]),
      credentials_env: Type.String({ minLength: 1, default: 'GOOGLE_ADS_CREDENTIALS', description: 'name of the environment variable holding the credentials JSON (with developer token)' }),
      queries: Type.Array(Type.Object({ name: Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), query: Type.String({ minLength: 1 }) }, { additionalProperties: false }), {
        default: DEFAULT_QUERIES,
        minItems: 1,
      }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: true, dateRange: true, customQueries: true, performanceMetrics: true },
  resources: DEFAULT_QUERIES.map((q) => ({ name: q.name, cursorField: 'segments_date' })),
  defaultResources: DEFAULT_QUERIES.map((q) => q.name),
});
