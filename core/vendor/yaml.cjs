// The yaml the plugins' built code imports (and core's lazy-deps.ts requires): the bundle
// dist/vendor/yaml.cjs (see src/vendor/yaml.ts), loaded when one of its exports is first read. The
// prebuilt plugins (runtime/) read an import's names at each call, so a start whose config texts are
// all kept parsed (src/config/yaml-values.ts) never loads the parser (~9 ms); an ES module's import
// reads them at once. Its export names are listed for Node's ESM import here, so that it does not scan
// the whole bundle for them (cjs-module-lexer).
'use strict';
let bundle;
const load = () => (bundle ??= require('./load-bundle.cjs').loadBundle(require.resolve('../dist/vendor/yaml.cjs')));
const names = ['Composer', 'Document', 'Schema', 'YAMLError', 'YAMLParseError', 'YAMLWarning', 'Alias', 'isAlias', 'isCollection', 'isDocument', 'isMap', 'isNode', 'isPair', 'isScalar', 'isSeq', 'Pair', 'Scalar', 'YAMLMap', 'YAMLSeq', 'CST', 'Lexer', 'LineCounter', 'Parser', 'parse', 'parseAllDocuments', 'parseDocument', 'stringify', 'visit', 'visitAsync'];
for (const name of names) Object.defineProperty(module.exports, name, { enumerable: true, get: () => load()[name] });
0 && (module.exports = { Composer, Document, Schema, YAMLError, YAMLParseError, YAMLWarning, Alias, isAlias, isCollection, isDocument, isMap, isNode, isPair, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq, CST, Lexer, LineCounter, Parser, parse, parseAllDocuments, parseDocument, stringify, visit, visitAsync });
