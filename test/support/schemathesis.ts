import os from 'node:os';
import path from 'node:path';

/** The pinned schemathesis the API conformance run uses (scripts/setup.d/60-schemathesis-venv.mjs installs it). */
export const SCHEMATHESIS_VERSION = '4.32.5';
export const schemathesisVenv = (): string => process.env.BASIN_SCHEMATHESIS_VENV ?? path.join(os.homedir(), '.cache', 'basin', 'venv-schemathesis');
export const schemathesisBin = (): string => path.join(schemathesisVenv(), 'bin', 'st');
