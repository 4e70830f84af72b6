/**
 * `npm run test:faults`: the fault, race, isolation and fuzz suite (test/faults), against the local
 * cloud. Separate from `npm test`, which it would lengthen by minutes; README gives its runtime.
 */
const { projects } = require('./jest.config.js');

const integration = projects.find((p) => p.displayName === 'integration');

module.exports = {
  // A global option (jest ignores it inside a project): the pipeline runs wait for whole queues to settle.
  testTimeout: 300_000,
  projects: [{ ...integration, displayName: 'faults', testMatch: ['<rootDir>/test/faults/**/*.test.ts'] }],
};
