export * from './types.js';
export { redactSecrets, secretForms, REDACTED } from './redact.js';
export * from './oauth.js';
export { resolveConfig } from './config.js';
export { inferColumns } from './schema.js';
export { declareSource, type SourceManifest } from './declare.js';
export * from './files/index.js';
export * from './rest/index.js';
export { Type, type Static, type TSchema } from '@sinclair/typebox';
