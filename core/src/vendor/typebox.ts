// TypeBox for the plugins (their build aliases '@sinclair/typebox' here): the SDK's single bundled copy.
export * from '@sinclair/typebox';
