// commander bundled into one CommonJS file (dist/vendor/commander.cjs), loaded with a V8 code cache by
// vendor/commander.cjs: as an ES import its six CommonJS files were compiled and scanned for export
// names at every CLI command (~10 ms of each).
export { Argument, Command, CommanderError, Help, InvalidArgumentError, InvalidOptionArgumentError, Option } from 'commander';
