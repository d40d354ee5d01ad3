// The configuration of a single-host Trino coordinator for Basin: an Iceberg catalog (JDBC catalog in
// PostgreSQL, files on local disk) for the warehouse, a Hive catalog with a file metastore over the
// same disk for Parquet staging tables, password logins from a bcrypt file, and file access control
// that gives the reader read-only access to the warehouse catalog and nothing else.
// `basin warehouse up` and the test support write the same files.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import bcrypt from 'bcrypt';

export interface TrinoLogin {
  user: string;
  password: string;
}

export interface CoordinatorConfig {
  /** the coordinator's own folder: etc/ and data/ are written under it */
  dir: string;
  /** plain HTTP, loopback only: the coordinator's own traffic and health checks */
  port: number;
  /** HTTPS with a self-signed certificate: password logins (Trino refuses passwords over HTTP) */
  httpsPort: number;
  /** where Iceberg tables and the staging Parquet live (`local:///` in Trino) */
  lakeDir: string;
  /** the Iceberg JDBC catalog's PostgreSQL database */
  catalogDb: { host: string; port: number; database: string; user: string; password: string };
  /** full access to both catalogs (loads, dbt) */
  writer: TrinoLogin;
  /** read-only access to the warehouse catalog (query endpoint, catalog, profiles) */
  reader: TrinoLogin;
  /** the Iceberg catalog's name in Trino; default "lake" */
  catalog?: string;
  /** the Hive staging catalog's name; default "staging" */
  stagingCatalog?: string;
  heapMb?: number;
}

export const DEFAULT_CATALOG = 'lake';
export const DEFAULT_STAGING_CATALOG = 'staging';

const properties = (entries: Record<string, string | number | boolean>) =>
  Object.entries(entries)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join('\n') + '\n';

/**
 * The Iceberg catalog's JDBC tables, which Trino expects to exist. Made in the current (V1) shape with
 * `iceberg_type`: otherwise Trino ALTERs them on first use, and two first uses at once fail with
 * "Cannot check and eventually update SQL schema".
 */
export const ICEBERG_CATALOG_DDL = [
  `CREATE TABLE IF NOT EXISTS iceberg_tables (catalog_name VARCHAR(255) NOT NULL, table_namespace VARCHAR(255) NOT NULL, table_name VARCHAR(255) NOT NULL, metadata_location VARCHAR(1000), previous_metadata_location VARCHAR(1000), iceberg_type VARCHAR(5), PRIMARY KEY (catalog_name, table_namespace, table_name))`,
  `CREATE TABLE IF NOT EXISTS iceberg_namespace_properties (catalog_name VARCHAR(255) NOT NULL, namespace VARCHAR(255) NOT NULL, property_key VARCHAR(255), property_value VARCHAR(1000), PRIMARY KEY (catalog_name, namespace, property_key))`,
];

/** Trino's file authenticator takes bcrypt hashes with the $2y$ prefix only (same algorithm as $2b$). */
const trinoBcrypt = (password: string) => bcrypt.hashSync(password, 8).replace(/^\$2[ab]\$/, '$2y$');

/** Writes etc/ for the coordinator; returns the etc folder. Overwrites a previous configuration. */
export function writeCoordinatorConfig(cfg: CoordinatorConfig): string {
  const catalog = cfg.catalog ?? DEFAULT_CATALOG;
  const staging = cfg.stagingCatalog ?? DEFAULT_STAGING_CATALOG;
  if (cfg.writer.user === cfg.reader.user) throw new Error('the Trino writer and reader must be different users');
  const etc = path.join(cfg.dir, 'etc');
  const data = path.join(cfg.dir, 'data');
  fs.mkdirSync(path.join(etc, 'catalog'), { recursive: true });
  fs.mkdirSync(data, { recursive: true });
  fs.mkdirSync(cfg.lakeDir, { recursive: true });
  const heap = cfg.heapMb ?? 2048;
  const url = `http://127.0.0.1:${cfg.port}`;
  fs.writeFileSync(path.join(etc, 'node.properties'), properties({ 'node.environment': 'basin', 'node.id': crypto.randomUUID(), 'node.data-dir': data }));
  // C1 only (-XX:TieredStopAtLevel=1): a single host with few cores starts faster and runs Basin's
  // short statements faster; a real cluster has its own jvm.config
  fs.writeFileSync(
    path.join(etc, 'jvm.config'),
    [`-server`, `-Xmx${heap}M`, '-XX:+UseG1GC', '-XX:+ExitOnOutOfMemoryError', '-XX:+HeapDumpOnOutOfMemoryError', '-XX:-OmitStackTraceInFastThrow', '-Djdk.attach.allowAttachSelf=true', '-XX:TieredStopAtLevel=1', ''].join('\n'),
  );
  const queryMem = Math.max(256, Math.floor(heap * 0.4));
  fs.writeFileSync(
    path.join(etc, 'config.properties'),
    properties({
      coordinator: true,
      'node-scheduler.include-coordinator': true,
      'http-server.http.port': cfg.port,
      'discovery.uri': url,
      'query.max-memory': `${queryMem}MB`,
      'query.max-memory-per-node': `${queryMem}MB`,
      'http-server.https.enabled': true,
      'http-server.https.port': cfg.httpsPort,
      'http-server.https.keystore.path': certificate(etc),
      'http-server.authentication.type': 'PASSWORD',
      // HTTP stays for the coordinator's own announcements; logins with a password need HTTPS
      'http-server.authentication.allow-insecure-over-http': true,
      'internal-communication.shared-secret': crypto.randomBytes(32).toString('base64'),
      'http-server.process-forwarded': false,
    }),
  );
  fs.writeFileSync(path.join(etc, 'password.db'), `${cfg.writer.user}:${trinoBcrypt(cfg.writer.password)}\n${cfg.reader.user}:${trinoBcrypt(cfg.reader.password)}\n`, { mode: 0o600 });
  fs.writeFileSync(path.join(etc, 'password-authenticator.properties'), properties({ 'password-authenticator.name': 'file', 'file.password-file': path.join(etc, 'password.db') }));
  fs.writeFileSync(
    path.join(etc, 'rules.json'),
    JSON.stringify(
      {
        catalogs: [
          { user: escapeRegex(cfg.writer.user), allow: 'all' },
          { user: escapeRegex(cfg.reader.user), catalog: escapeRegex(catalog), allow: 'read-only' },
          { user: escapeRegex(cfg.reader.user), catalog: 'system', allow: 'read-only' },
          { allow: 'none' },
        ],
      },
      null,
      2,
    ),
  );
  fs.writeFileSync(path.join(etc, 'access-control.properties'), properties({ 'access-control.name': 'file', 'security.config-file': path.join(etc, 'rules.json') }));
  const db = cfg.catalogDb;
  fs.writeFileSync(
    path.join(etc, 'catalog', `${catalog}.properties`),
    properties({
      'connector.name': 'iceberg',
      'iceberg.catalog.type': 'jdbc',
      'iceberg.jdbc-catalog.catalog-name': catalog,
      'iceberg.jdbc-catalog.driver-class': 'org.postgresql.Driver',
      'iceberg.jdbc-catalog.connection-url': `jdbc:postgresql://${db.host}:${db.port}/${db.database}`,
      'iceberg.jdbc-catalog.connection-user': db.user,
      'iceberg.jdbc-catalog.connection-password': db.password,
      'iceberg.jdbc-catalog.default-warehouse-dir': 'local:///iceberg',
      'iceberg.file-format': 'PARQUET',
      'fs.native-local.enabled': true,
      'local.location': cfg.lakeDir,
    }),
  );
  fs.writeFileSync(
    path.join(etc, 'catalog', `${staging}.properties`),
    properties({
      'connector.name': 'hive',
      'hive.metastore': 'file',
      'hive.metastore.catalog.dir': 'local:///hive-metastore',
      'hive.non-managed-table-writes-enabled': true,
      // DuckDB writes microsecond timestamps; the default (milliseconds) rejects timestamp(6) columns
      'hive.timestamp-precision': 'MICROSECONDS',
      'fs.native-local.enabled': true,
      'local.location': cfg.lakeDir,
    }),
  );
  return etc;
}

/**
 * A self-signed certificate for 127.0.0.1/localhost (openssl), made once per coordinator folder:
 * Trino reads the PEM (key and certificate in one file); clients trust cert.pem.
 */
function certificate(etc: string): string {
  const pem = path.join(etc, 'server.pem');
  if (fs.existsSync(pem)) return pem;
  const key = path.join(etc, 'key.pem');
  const cert = path.join(etc, 'cert.pem');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '3650', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
  fs.writeFileSync(pem, fs.readFileSync(key, 'utf8') + fs.readFileSync(cert, 'utf8'), { mode: 0o600 });
  fs.rmSync(key);
  return pem;
}

/** the certificate clients of a local coordinator trust (written by writeCoordinatorConfig) */
export const certificatePath = (dir: string): string => path.join(dir, 'etc', 'cert.pem');

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
