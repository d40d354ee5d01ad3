// The yaml the plugins' built code imports (and core's lazy-deps.ts requires): the bundle
// dist/vendor/yaml.cjs (see src/vendor/yaml.ts). Its export names are listed for Node's ESM import here,
// so that it does not scan the whole bundle for them (cjs-module-lexer).
const yaml = require('./load-bundle.cjs').loadBundle(require.resolve('../dist/vendor/yaml.cjs'));
module.exports = yaml;
0 && (module.exports = { Composer, Document, Schema, YAMLError, YAMLParseError, YAMLWarning, Alias, isAlias, isCollection, isDocument, isMap, isNode, isPair, isScalar, isSeq, Pair, Scalar, YAMLMap, YAMLSeq, CST, Lexer, LineCounter, Parser, parse, parseAllDocuments, parseDocument, stringify, visit, visitAsync });
