// awilix bundled into one CommonJS file: its index requires fast-glob and its ~60 files even though
// Basin never scans for modules. core requires it on first use (lazy-deps.ts).
export * from 'awilix';
