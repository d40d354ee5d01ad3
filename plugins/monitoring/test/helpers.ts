import fs from 'node:fs';
import path from 'node:path';
import type { BasinApp } from '@basin/core';
import { ManualClock } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import monitoringPlugin from '../src/index.js';

/** The last day of generated data; the clock stands on the day after. */
export const LAST_DAY = '2026-03-10';

/** A project with the monitoring plugin only (auth disabled) and the given monitors file. */
export async function bootMonitoring(
  files: Record<string, string>,
  clock = new ManualClock('2026-03-11T08:00:00Z'),
  remove: string[] = [],
): Promise<{ app: BasinApp; clock: ManualClock }> {
  const dir = makeProject(files);
  for (const f of remove) fs.rmSync(path.join(dir, f));
  disableAuth(dir);
  const app = await bootApp(dir, { plugins: [monitoringPlugin], clock });
  return { app, clock };
}

/**
 * raw_shop.orders: 40 days up to LAST_DAY, each day 10 orders of 10.00 per region (EU, US, APAC)
 * and channel (web for even ids, app for odd); on LAST_DAY the EU has only 5 orders (−50 %).
 * Plus a few refunded orders that a filter excludes.
 */
export async function seedOrders(app: BasinApp): Promise<void> {
  await app.warehouse.write(async (c) => {
    await c.run('CREATE SCHEMA IF NOT EXISTS raw_shop');
    await c.run(`CREATE OR REPLACE TABLE raw_shop.orders AS
      WITH days AS (SELECT CAST(d AS DATE) AS day FROM generate_series(DATE '${LAST_DAY}' - INTERVAL 39 DAY, DATE '${LAST_DAY}', INTERVAL 1 DAY) t(d)),
           regions AS (SELECT * FROM (VALUES ('EU'), ('US'), ('APAC')) r(region)),
           n AS (SELECT range AS i FROM range(10))
      SELECT row_number() OVER () AS id, day + INTERVAL 13 HOUR + i * INTERVAL 1 MINUTE AS ordered_at, region,
             CASE WHEN i % 2 = 0 THEN 'web' ELSE 'app' END AS channel, 10.0::DOUBLE AS amount, 'paid' AS status
        FROM days, regions, n
       WHERE NOT (day = DATE '${LAST_DAY}' AND region = 'EU' AND i >= 5)`);
    await c.run(`INSERT INTO raw_shop.orders SELECT 100000 + range, TIMESTAMP '${LAST_DAY} 10:00:00', 'US', 'web', 1000.0, 'refunded' FROM range(3)`);
  });
}

export const MONITORS = `monitors:
  - name: daily_revenue
    source_table: raw_shop.orders
    value_expression: sum(amount)
    filter: status = 'paid'
    compare: prior_period
    alert_threshold: 10
    drill_down: [region, channel]
`;
