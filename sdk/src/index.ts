export * from './types.js';
export { Type, type Static, type TSchema } from '@sinclair/typebox';
