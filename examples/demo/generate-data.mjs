#!/usr/bin/env node
// Generates the demo's sample data (deterministic): customers (CSV), monthly order files (CSV),
// order items (JSONL) and products (Parquet, written by DuckDB). Usage: node generate-data.mjs [scale]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuckDBInstance } from '@duckdb/node-api';

const here = path.dirname(fileURLToPath(import.meta.url));
const scale = Number(process.argv[2] ?? 1);
const out = path.join(here, 'data', 'uploads');

let seed = 42;
const rand = () => ((seed = (seed * 1664525 + 1013904223) % 4294967296) / 4294967296);
const pick = (a) => a[Math.floor(rand() * a.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pad = (n, w = 2) => String(n).padStart(w, '0');
const csvCell = (v) => (/[",\n]/.test(String(v)) ? `"${String(v).replace(/"/g, '""')}"` : String(v));
const writeCsv = (file, header, rows) => fs.writeFileSync(file, [header.join(','), ...rows.map((r) => r.map(csvCell).join(','))].join('\n') + '\n');

const FIRST = ['Ada', 'Grace', 'Alan', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'John', 'Radia', 'Tim', 'Hedy', 'Linus', 'Sophie', 'Lars', 'Ingrid', 'Mateo', 'Aiko', 'Priya'];
const LAST = ['Lovelace', 'Hopper', 'Turing', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Backus', 'Perlman', 'Berners-Lee', 'Lamarr', 'Torvalds', 'Wilson', 'Nilsson', 'Berg', 'Garcia', 'Tanaka', 'Sharma'];
const COUNTRIES = ['DE', 'FR', 'NL', 'SE', 'US', 'GB', 'ES', 'IT', 'JP', 'IN'];
const CATEGORIES = ['coffee', 'tea', 'equipment', 'books', 'gifts'];
const STATUSES = ['completed', 'completed', 'completed', 'completed', 'shipped', 'cancelled', 'refunded'];
const CHANNELS = ['web', 'web', 'mobile', 'store', 'partner'];

fs.rmSync(out, { recursive: true, force: true });
for (const d of ['customers', 'orders', 'order_items', 'products']) fs.mkdirSync(path.join(out, d), { recursive: true });

const nCustomers = 2000 * scale;
const customers = [];
for (let i = 1; i <= nCustomers; i++) {
  const f = pick(FIRST);
  const l = pick(LAST);
  customers.push([i, f, l, `${f}.${l}${i}@example.com`.toLowerCase(), `+49 30 ${int(1000000, 9999999)}`, pick(COUNTRIES), `2025-${pad(int(1, 12))}-${pad(int(1, 28))}`]);
}
writeCsv(path.join(out, 'customers', 'customers.csv'), ['customer_id', 'first_name', 'last_name', 'email', 'phone', 'country', 'signup_date'], customers);

const products = [];
for (let i = 1; i <= 200; i++) products.push({ product_id: i, name: `${pick(['Single-origin', 'House', 'Organic', 'Limited', 'Classic'])} ${pick(CATEGORIES)} #${i}`, category: pick(CATEGORIES), price: Math.round((3 + rand() * 120) * 100) / 100 });

let orderId = 0;
const items = [];
for (let month = 1; month <= 12; month++) {
  const rows = [];
  const n = int(800, 1200) * scale;
  for (let k = 0; k < n; k++) {
    orderId++;
    const lines = int(1, 4);
    let amount = 0;
    for (let line = 1; line <= lines; line++) {
      const p = pick(products);
      const q = int(1, 3);
      amount += p.price * q;
      items.push({ order_id: orderId, line, product_id: p.product_id, quantity: q, unit_price: p.price });
    }
    rows.push([orderId, int(1, nCustomers), `2026-${pad(month)}-${pad(int(1, 28))}`, pick(STATUSES), pick(CHANNELS), amount.toFixed(2)]);
  }
  writeCsv(path.join(out, 'orders', `orders_2026_${pad(month)}.csv`), ['order_id', 'customer_id', 'order_date', 'status', 'channel', 'amount'], rows);
}
fs.writeFileSync(path.join(out, 'order_items', 'order_items.jsonl'), items.map((i) => JSON.stringify(i)).join('\n') + '\n');

const tmpJson = path.join(out, 'products', '.products.json');
fs.writeFileSync(tmpJson, JSON.stringify(products));
const db = await DuckDBInstance.create(':memory:');
const conn = await db.connect();
const target = path.join(out, 'products', 'products.parquet').replace(/'/g, "''");
await conn.run(`COPY (SELECT * FROM read_json('${tmpJson.replace(/'/g, "''")}')) TO '${target}' (FORMAT parquet)`);
conn.closeSync();
db.closeSync();
fs.rmSync(tmpJson);

console.log(`demo data: ${customers.length} customers, ${orderId} orders in 12 files, ${items.length} order items, ${products.length} products -> ${path.relative(process.cwd(), out)}`);
