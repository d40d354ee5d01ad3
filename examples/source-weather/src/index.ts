import { defineSource, notImplemented, Type } from '@basin/sdk';

// Example third-party source (placeholder until the ingestion issue completes it).
export default defineSource({
  type: 'weather_station',
  category: 'api',
  authKind: 'none',
  wizard: true,
  configSchema: Type.Object({}, { additionalProperties: true, default: {} }),
  capabilities: { incremental: false, dateRange: false, customQueries: false },
  implemented: false,
  async check() {
    throw notImplemented('weather_station');
  },
  async discover() {
    throw notImplemented('weather_station');
  },
  // eslint-disable-next-line require-yield
  async *read() {
    throw notImplemented('weather_station');
  },
});
