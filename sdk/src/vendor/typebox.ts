// TypeBox bundled into one module: its ESM build is ~250 files, and loading them one by one cost
// `basin start` ~50 ms of CPU and ~12 MB. Every built package imports TypeBox from here (the build
// aliases '@sinclair/typebox' to '@basin/sdk/typebox', scripts/lib/tsup-vendor.mjs), so there is one
// copy and one FormatRegistry; run from sources (tsx) they all import the package itself.
export * from '@sinclair/typebox';
