import fs from 'node:fs';
import path from 'node:path';
import type { BasinApp } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import queryPlugin, { type ApiSection } from '../src/index.js';

/** A project with the query plugin only (auth disabled) and the given `api` section. */
export async function bootQueryApp(api: Partial<Record<keyof ApiSection, number>> = {}): Promise<BasinApp> {
  const dir = makeProject();
  disableAuth(dir);
  const lines = Object.entries(api).map(([k, v]) => `  ${k}: ${v}`);
  if (lines.length) fs.appendFileSync(path.join(dir, '.basin', 'project.yml'), `\napi:\n${lines.join('\n')}\n`);
  return bootApp(dir, { plugins: [queryPlugin] });
}

/** raw.customers and raw.orders with known values, then a published serving copy. */
export async function seedShop(app: BasinApp): Promise<void> {
  await app.warehouse.write(async (c) => {
    await c.run('CREATE SCHEMA IF NOT EXISTS raw');
    await c.run(`CREATE OR REPLACE TABLE raw.customers AS SELECT * FROM (VALUES
      (1, 'Ada', 'DE'), (2, 'Grace', 'US'), (3, 'Linus', 'FI')) t(id, name, country)`);
    await c.run(`CREATE OR REPLACE TABLE raw.orders AS SELECT * FROM (VALUES
      (10, 1, 12.50::DECIMAL(10,2), DATE '2024-01-01'),
      (11, 1, 7.50::DECIMAL(10,2),  DATE '2024-01-02'),
      (12, 2, 100.00::DECIMAL(10,2), DATE '2024-01-02'),
      (13, 3, 30.00::DECIMAL(10,2), DATE '2024-01-03'),
      (14, 2, 20.00::DECIMAL(10,2), DATE '2024-01-03')) t(id, customer_id, amount, ordered_on)`);
  });
  await app.warehouse.publishServingCopy();
}

export async function query(app: BasinApp, sql: unknown) {
  const r = await app.http.inject({ method: 'POST', url: '/api/query', payload: { sql } });
  return { status: r.statusCode, body: r.json() as any };
}
