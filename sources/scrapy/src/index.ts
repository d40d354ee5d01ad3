import { defineSource, SourceError, Type } from '@basin/sdk';

function reserved(): SourceError {
  return new SourceError(
    'not_configurable',
    'The "scrapy" source type is reserved: it is accepted in sources.yml but cannot be configured or synced. Write the crawler as an ingest_native source in custom_sources/ instead.',
    { type: 'scrapy' },
  );
}

/** `scrapy`: an accepted, reserved type key (SPEC): no fields, no wizard, no runtime. */
export default defineSource({
  type: 'scrapy',
  title: 'Scrapy (reserved)',
  category: 'custom',
  authKind: 'none',
  wizard: false,
  configKey: 'typed',
  // no fields: anything under `scrapy:` is reported as an unknown key
  configSchema: Type.Object({}, { additionalProperties: false, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  docs: 'Reserved type: accepted in sources.yml, but it cannot be configured; use ingest_native.',
  async check() {
    return { ok: false, message: reserved().message };
  },
  async discover() {
    throw reserved();
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw reserved();
  },
});
