// The ajv-compiler core's built code imports: from the bundle dist/vendor/http.cjs (see src/vendor/http.ts).
// Not `module.exports = require(...).x`: Node's ESM import would then scan the whole 1.7 MB bundle for
// export names (cjs-module-lexer, ~150 ms).
const bundle = require('./load-bundle.cjs').loadBundle(require.resolve('../dist/vendor/http.cjs'));
module.exports = bundle.ajvCompiler;
