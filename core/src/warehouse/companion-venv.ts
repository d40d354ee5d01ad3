// Which companion venv a project needs, without booting it (`basin bi|notebooks setup`, `basin doctor`):
// its warehouse decides the SQLAlchemy drivers added to the companion's venv (issue 22).
import type { DoctorCheck } from '../cli-kit/doctor.js';
import type { BasinConfig } from '../config/service.js';
import type { ManagedVenv } from '../python-venv.js';
import { companionConnection } from './companion-env.js';
import { resolveWarehouseSettings } from './registry.js';

export interface CompanionVenvChoice {
  venv: ManagedVenv;
  /** the project's warehouse type ("duckdb" when the config is invalid) */
  warehouse: string;
  /** the pins the server warehouse adds (none for DuckDB) */
  drivers: readonly string[];
}

/** `forDrivers` is the companion's venvFor: the DuckDB venv for none, the same venv with the drivers otherwise */
export async function companionVenvOf(config: BasinConfig | null, forDrivers: (drivers: readonly string[] | undefined) => ManagedVenv): Promise<CompanionVenvChoice> {
  // a warehouse section the backend cannot make a client of is the warehouse check's finding, not this one's
  const conn = config ? await companionConnection(config).catch(() => null) : null;
  const warehouse = config ? String(resolveWarehouseSettings(config.section<Record<string, unknown> | undefined>('warehouse')).type) : 'duckdb';
  return { venv: forDrivers(conn?.drivers), warehouse, drivers: conn?.drivers ?? [] };
}

/**
 * `basin doctor` on a companion venv: the plain check for DuckDB; on a server warehouse a venv that
 * lacks only the driver says so and names the command that adds it.
 */
export function companionVenvDoctorCheck(choice: CompanionVenvChoice, base: ManagedVenv, projectDir: string): DoctorCheck {
  const check = choice.venv.doctorCheck(projectDir);
  if (!choice.drivers.length) return check;
  const named = { ...check, name: `${check.name} (${choice.warehouse} warehouse)` };
  const { dir } = choice.venv.locate(projectDir);
  if (check.status === 'warn' && base.ready(dir)) {
    const extra = choice.venv.spec.requirements.filter((r) => !base.spec.requirements.includes(r));
    return { ...named, detail: `installed, but without the ${choice.warehouse} driver ${extra.join(', ')} (${dir})`, fix: `Run "${choice.venv.spec.setupCommand} --project ${projectDir}" to add it (a few MB).` };
  }
  return named;
}
