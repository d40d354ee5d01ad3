// '@sinclair/typebox/value' for the plugins: the SDK's single bundled copy.
export * from '@sinclair/typebox/value';
