// yaml bundled into one CommonJS file (dist/vendor/yaml.cjs; its build is ~70 files): core requires it
// on first use (lazy-deps.ts) and the plugins' `import ... from 'yaml'` is aliased to it at build time
// (scripts/lib/tsup-vendor.mjs) through core/vendor/yaml.cjs, so the process loads one small copy.
export * from 'yaml';
