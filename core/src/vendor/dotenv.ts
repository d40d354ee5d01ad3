// dotenv's parser bundled into one CommonJS file (dist/vendor/dotenv.cjs) with a code cache: core
// requires it on first use (lazy-deps.ts), and the plugins' `import dotenv from 'dotenv'` is aliased to
// it at build time (scripts/lib/tsup-vendor.mjs) through core/vendor/dotenv.cjs. Imported as a package
// it cost 7-9 ms of every start and CLI command that loads core (an ES import of a CommonJS module that
// requires its own package.json); Basin uses only `parse`.
export { parse } from 'dotenv';
