// '@sinclair/typebox/value' for the type checker and from sources; built, vendor/typebox-value.mjs,
// from the same bundle as '@basin/sdk/typebox' (the same registries).
export * from '@sinclair/typebox/value';
