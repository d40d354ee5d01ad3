// The commander core's built code imports: the bundle dist/vendor/commander.cjs (see
// src/vendor/commander.ts) with its code cache. Its export names are written out so that Node's ESM
// import finds them without scanning the bundle (cjs-module-lexer).
'use strict';
const bundle = require('./load-bundle.cjs').loadBundle(require.resolve('../dist/vendor/commander.cjs'));
exports.Argument = bundle.Argument;
exports.Command = bundle.Command;
exports.CommanderError = bundle.CommanderError;
exports.Help = bundle.Help;
exports.InvalidArgumentError = bundle.InvalidArgumentError;
exports.InvalidOptionArgumentError = bundle.InvalidOptionArgumentError;
exports.Option = bundle.Option;
