// '@basin/sdk/typebox' for the type checker and for runs from sources (tsx): the package itself. Built,
// the import is vendor/typebox.mjs: TypeBox bundled into one file (its ESM build is ~250 files, which
// cost `basin start` ~50 ms of CPU and ~12 MB one by one), loaded with a V8 code cache. Every built
// package imports TypeBox from there (the build aliases '@sinclair/typebox' to '@basin/sdk/typebox',
// scripts/lib/tsup-vendor.mjs), so there is one copy and one FormatRegistry.
export * from '@sinclair/typebox';
