export { runSourceContract, assertWellFormed, type ContractOptions } from './contract.js';
export { createTestContext, configWithDefaults, type LogEntry, type TestContext, type TestContextOptions } from './context.js';
export { collectRead, type ReadResult } from './collect.js';
export { FakeVendor, basicCredentials, bearerToken, type FakeHandler, type FakeReply, type FakeRequest, type FakeVendorOptions } from './fake-vendor.js';
export { runVendorSuite, type VendorSuiteOptions } from './vendor-suite.js';
export { fakeServiceAccount, type FakeServiceAccount } from './google-token.js';
export { tempTestDir } from './temp-dir.js';
