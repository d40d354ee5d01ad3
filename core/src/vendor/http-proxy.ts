// @fastify/http-proxy (with @fastify/reply-from, undici and ws: ~140 modules, ~100 ms of CPU and ~10 MB
// when loaded one by one) bundled into one CommonJS file for the plugins that proxy a companion (bi,
// notebooks): their build aliases the package to core/vendor/http-proxy.cjs (scripts/lib/tsup-vendor.mjs).
export { default as httpProxy } from '@fastify/http-proxy';
