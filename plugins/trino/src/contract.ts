// What other plugins may use of the Trino plugin: nothing yet beyond its configuration types.
export type { CoordinatorConfig, TrinoLogin as TrinoLoginConfig } from './coordinator-config.js';
