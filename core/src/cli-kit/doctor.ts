import type { BasinConfig } from '../config/service.js';

/** One finding of `basin doctor`: what was checked, how it went, and the fix when it is not ok. */
export interface DoctorCheck {
  /** a group shown as a heading: environment, project, venvs, sources, ports, disk */
  area: string;
  name: string;
  status: 'ok' | 'warn' | 'fail';
  detail: string;
  /** what to do, as a command or a sentence; required when status is not ok */
  fix?: string;
}

/** What a plugin's `doctor` contribution receives: the project, its validated config (null when invalid). */
export interface DoctorContext {
  projectDir: string;
  config: BasinConfig | null;
  /** true when a Basin server runs for the project (ports it holds are not a problem) */
  serverRunning: boolean;
}
