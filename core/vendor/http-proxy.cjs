// The @fastify/http-proxy the plugins' built code imports: from the bundle dist/vendor/http-proxy.cjs
// (see src/vendor/http-proxy.ts). Assigned from a variable so Node's ESM import does not scan the bundle.
const bundle = require('./load-bundle.cjs').loadBundle(require.resolve('../dist/vendor/http-proxy.cjs'));
module.exports = bundle.httpProxy;
