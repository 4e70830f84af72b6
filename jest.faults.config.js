/**
 * `npm run test:faults`: the fault, race and isolation suite (test/faults), against the local
 * cloud, and the route fuzzer (test/integration/fuzz.test.ts, which `npm test` runs too; FUZZ_RUNS
 * enlarges it for a soak). Separate from `npm test`, which it would lengthen by minutes; README gives its runtime.
 */
const { projects } = require('./jest.config.js');

const integration = projects.find((p) => p.displayName === 'integration');

module.exports = {
  // A global option (jest ignores it inside a project): the pipeline runs wait for whole queues to settle.
  testTimeout: 300_000,
  projects: [{ ...integration, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.test.ts', '<rootDir>/test/integration/fuzz.test.ts'] }],
};
