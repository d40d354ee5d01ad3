export * from './types.js';
export * from './files/index.js';
export { Type, type Static, type TSchema } from '@sinclair/typebox';
