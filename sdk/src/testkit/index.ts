export { runSourceContract, assertWellFormed, type ContractOptions } from './contract.js';
export { createTestContext, configWithDefaults, type LogEntry, type TestContext, type TestContextOptions } from './context.js';
export { collectRead, type ReadResult } from './collect.js';
