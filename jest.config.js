/** Jest projects: unit (fast, no emulators), integration (against the local cloud), infra (CDK assertions). */
const transform = { '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }] };
// middy ships ES modules only: let swc turn them into CommonJS for jest.
const transformIgnorePatterns = ['/node_modules/(?!@middy)'];
const common = { transform, transformIgnorePatterns, testEnvironment: 'node', setupFiles: ['<rootDir>/test/setup-env.ts'] };

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/test/unit/**/*.test.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.test.ts'],
      testTimeout: 30_000,
    },
    { ...common, displayName: 'infra', testMatch: ['<rootDir>/test/infra/**/*.test.ts'] },
  ],
};
