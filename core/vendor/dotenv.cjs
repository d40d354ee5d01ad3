// The dotenv the plugins' built code imports (and core's lazy-deps.ts requires): the bundle
// dist/vendor/dotenv.cjs (see src/vendor/dotenv.ts), loaded when `parse` is first read. Its export
// name is listed for Node's ESM import (cjs-module-lexer) below.
'use strict';
let bundle;
const load = () => (bundle ??= require('./load-bundle.cjs').loadBundle(require.resolve('../dist/vendor/dotenv.cjs')));
// (a name in a loop: the lexer drops a name it sees defined with a getter of another shape)
for (const name of ['parse']) Object.defineProperty(module.exports, name, { enumerable: true, get: () => load()[name] });
0 && (module.exports = { parse });
