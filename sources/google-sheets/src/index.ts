import { declareSource, Type } from '@basin/sdk';

/**
 * Google Sheets (SPEC: spreadsheets, OAuth). OAuth credentials come from .ingest/secrets.toml.
 * Manifest only; the runtime comes in a later release.
 */
export default declareSource({
  type: 'google_sheets',
  title: 'Google Sheets',
  category: 'productivity',
  authKind: 'oauth2',
  wizard: true,
  configKey: 'typed',
  configSchema: Type.Object(
    {
      spreadsheet_url_or_id: Type.String({ minLength: 1 }),
      range_names: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'sheet names or A1 ranges; one table each' }),
      deduplication: Type.Union([Type.Literal('none'), Type.Literal('latest_only'), Type.Literal('append_only'), Type.Literal('scd_type2')], { default: 'latest_only' }),
    },
    { additionalProperties: false, default: {} },
  ),
  capabilities: { incremental: false, dateRange: false, customQueries: false, performanceMetrics: false },
});
