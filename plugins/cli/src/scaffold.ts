import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { BASIN_VERSION, writeFileAtomic } from '@basin/core';

export interface ScaffoldOptions {
  name?: string;
  purpose?: string;
  createdBy?: string;
  organization?: string;
  now?: Date;
}

export const GITIGNORE = `# Basin: sensitive and generated files
.env
.ingest/secrets.toml
.basin/bi.yml
.basin/bi/
.basin/auth.db*
.basin/state.db*
.basin/secret.key
.basin/basin.lock
.basin/server.json
.basin/cloud_key*
data/
.venv-tx/
tx/target/
tx/target-dev/
tx/logs-dev/
tx/logs/
tx/dbt_packages/
`;

function whoAmI(): string {
  try {
    const email = execFileSync('git', ['config', 'user.email'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (email) return email;
  } catch {
    /* no git identity */
  }
  return os.userInfo().username;
}

/** dbt project names must be identifiers */
export const dbtName = (name: string) => name.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^([^a-z_])/, '_$1') || 'basin_project';

/** The files of a new project: everything `basin init` writes. */
export function projectFiles(opts: ScaffoldOptions & { name: string }): Record<string, string> {
  const now = (opts.now ?? new Date()).toISOString();
  const dbt = dbtName(opts.name);
  const q = (s: string) => JSON.stringify(s);
  return {
    '.basin/project.yml': `# Basin project configuration. Defaults apply to every field left out.
project:
  name: ${q(opts.name)}
${opts.organization ? `  organization: ${q(opts.organization)}\n` : ''}  basin_version: ${q(BASIN_VERSION)}
  created: ${q(now)}
  created_by: ${q(opts.createdBy ?? whoAmI())}
  purpose: ${q(opts.purpose ?? 'Analytics for ' + opts.name)}

platform:
  db_path: ./data/warehouse.db
  port: 8800

auth:
  enabled: true
`,
    '.basin/sources.yml': `version: "1.0"\nsources: []\n`,
    '.basin/schedules.yml': `schedules: []\nnotifications:\n  webhooks: []\n`,
    '.basin/monitors.yml': `enabled: true\nmonitors: []\n`,
    '.basin/pii-overrides.yml': `overrides: []\n`,
    '.env': `# Environment variables for this project (API tokens for *_env fields). Not committed.\n`,
    '.ingest/config.toml': `[load]\ntruncate_staging_dataset = false\n`,
    '.ingest/secrets.toml': `# Source credentials: [sources.<name>] and [sources.<name>.credentials]. Not committed.\n`,
    '.gitignore': GITIGNORE,
    'tx/dbt_project.yml': `name: ${dbt}
version: "1.0.0"
config-version: 2
profile: basin
model-paths: ["models"]
test-paths: ["tests"]
macro-paths: ["macros"]
target-path: target
clean-targets: ["target"]

models:
  ${dbt}:
    staging:
      +materialized: view
    intermediate:
      +materialized: view
    marts:
      +materialized: table
`,
    'tx/profiles.yml': `# dbt connection: the Basin warehouse, by a path relative to tx/ (BASIN_DB_PATH overrides it).
basin:
  target: dev
  outputs:
    dev:
      type: duckdb
      path: "{{ env_var('BASIN_DB_PATH', '../data/warehouse.db') }}"
      threads: 1
`,
    'tx/models/staging/.gitkeep': '',
    'tx/models/intermediate/.gitkeep': '',
    'tx/models/marts/.gitkeep': '',
    'tx/macros/.gitkeep': '',
    'tx/tests/.gitkeep': '',
    'data/uploads/.gitkeep': '',
    'scripts/.gitkeep': '',
    'custom_sources/.gitkeep': '',
  };
}

/** Creates a project in `dir`; refuses when one exists there. Returns the files written. */
export function scaffoldProject(dir: string, opts: ScaffoldOptions = {}): string[] {
  const abs = path.resolve(dir);
  if (fs.existsSync(path.join(abs, '.basin', 'project.yml'))) {
    throw new Error(`A Basin project already exists in ${abs}; refusing to overwrite it.`);
  }
  const files = projectFiles({ ...opts, name: opts.name ?? path.basename(abs) });
  for (const [rel, content] of Object.entries(files)) {
    const mode = rel === '.env' || rel === '.ingest/secrets.toml' ? 0o600 : undefined;
    writeFileAtomic(path.join(abs, rel), content, mode);
  }
  return Object.keys(files);
}
