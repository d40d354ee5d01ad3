// TypeBox and its Value module as one CommonJS file (dist/vendor/typebox.cjs): the ES modules
// vendor/typebox.mjs and vendor/typebox-value.mjs hand out its exports, loaded with a V8 code cache
// (vendor/load-bundle.cjs). As ES modules, its ~220 KB were compiled at every command and start
// (~10 ms more CPU). One file, so one copy of TypeBox's registries for both.
export * from '@sinclair/typebox';
export * as Value__ from '@sinclair/typebox/value';
