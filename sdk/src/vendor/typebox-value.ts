// '@sinclair/typebox/value' from the same bundle as ./typebox.ts (the same registries).
export * from '@sinclair/typebox/value';
