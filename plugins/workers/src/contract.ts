/** The public face of the workers plugin (`@basin/plugin-workers/contract`). */
export type { WorkersSection } from './config.js';
/** the pg-boss queue every sync job goes through */
export const SYNC_QUEUE = 'basin-sync';
