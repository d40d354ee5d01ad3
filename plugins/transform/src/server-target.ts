import fs from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, stringify } from 'yaml';
import { writeFileAtomic, type WarehouseClient } from '@basin/core';

/**
 * dbt on a server warehouse (issue 22): the project's tx/profiles.yml names the embedded DuckDB, so
 * Basin writes a profiles.yml of its own from the backend's dbt target, under the profile name
 * tx/dbt_project.yml asks for; secrets stay `env_var()` references filled from `target.env`.
 */
export function serverDbtTarget(client: WarehouseClient, txDir: string, profilesDir: string): { profilesDir: string; env: Record<string, string> } {
  const target = client.dbtTarget();
  let profile = 'basin';
  try {
    const p = parseYaml(fs.readFileSync(path.join(txDir, 'dbt_project.yml'), 'utf8'))?.profile;
    if (typeof p === 'string' && p) profile = p;
  } catch {
    /* dbt itself reports a missing or broken dbt_project.yml */
  }
  fs.mkdirSync(profilesDir, { recursive: true });
  writeFileAtomic(path.join(profilesDir, 'profiles.yml'), stringify({ [profile]: { target: 'basin', outputs: { basin: target.profile } } }));
  return { profilesDir, env: target.env };
}
