// The SDK contract kit against a real PostgreSQL: check, discover, read and incremental re-read.
import { after } from 'node:test';
import { runSourceContract } from '@basin/sdk/testkit';
import source from '../src/index.js';
import { READER, shopServer } from './pg-fixture.js';

const pg = await shopServer();
after(() => pg.stop());

pg.psql(
  `CREATE TABLE orders (id bigserial PRIMARY KEY, customer text NOT NULL, total numeric(12,2), updated_at timestamptz NOT NULL);
   INSERT INTO orders (customer, total, updated_at) SELECT 'c' || g, g * 1.25, timestamptz '2024-01-01 00:00:00+00' + g * interval '1 minute' FROM generate_series(1, 2500) g;
   CREATE TABLE events (seq int NOT NULL, kind text);
   INSERT INTO events SELECT g, 'view' FROM generate_series(1, 40) g;`,
  'shop',
);

const env = { SHOP_URL: pg.urlFor(READER.user, READER.password, 'shop'), BAD_URL: pg.urlFor(READER.user, 'wrong-password', 'shop') };
runSourceContract(
  source,
  { connection_url_env: 'SHOP_URL', tables: ['orders', 'events'], incremental: { orders: 'updated_at', events: 'seq' }, chunk_size: 1000 },
  {
    env,
    maxBatch: 1000,
    failingConfig: { connection_url_env: 'BAD_URL', tables: ['orders'] },
    addData() {
      pg.psql(
        `INSERT INTO orders (customer, total, updated_at) VALUES ('late', 9.99, '2024-06-01 12:00:00.123456+00');
         INSERT INTO events VALUES (41, 'click'), (42, 'click');`,
        'shop',
      );
    },
  },
);
