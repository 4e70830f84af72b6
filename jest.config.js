/** Jest projects: unit (fast, no emulators), integration (against the local cloud), infra (CDK assertions). */
const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] };
// middy and request-filtering-agent ship ES modules only: let swc turn them into CommonJS for jest.
const transformIgnorePatterns = ['/node_modules/(?!@middy|request-filtering-agent)'];
// The client package answers with its build (dist/, not committed); tests use its source.
const moduleNameMapper = { '^@mailroom/client$': '<rootDir>/clients/typescript/src/index.ts' };
const common = { transform, transformIgnorePatterns, moduleNameMapper, testEnvironment: 'node', setupFiles: ['<rootDir>/test/setup-env.ts'] };

module.exports = {
  // A global option: jest ignores testTimeout inside a project. Integration tests wait for workers
  // and emulators, which on a loaded 2-core machine can take longer than jest's 5 s default.
  testTimeout: 30_000,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      // Every function's handler watched: a test that invokes one outside its role fails (local/iam/function-roles.ts).
      setupFiles: [...common.setupFiles, '<rootDir>/test/integration/support/function-roles.ts'],
      // One DynamoDB Local for every file (each test cloud makes its own table in it): a JVM start
      // per file cost minutes of a CI run (docs/decisions.md, "CI time").
      globalSetup: '<rootDir>/test/integration/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/integration/support/global-teardown.ts',
    },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
  ],
};
