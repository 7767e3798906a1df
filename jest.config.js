/** One jest run over unit tests (beside the code) and integration tests (each library's integration/, and test/); see README "Tests". */
const swcrc = {
  jsc: {
    target: 'es2022',
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

/**
 * `npm run test:integration` (MEMEX_TEST_SUITE=integration): only the suites on real backends,
 * those crossing features in test/ and each feature's own beside its library
 * (libs/feature-x/integration/), as CI runs them again in embedded mode.
 */
const INTEGRATION = ['<rootDir>/test/**/*.spec.ts', '<rootDir>/libs/*/integration/**/*.spec.ts'];

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/libs', '<rootDir>/apps', '<rootDir>/test'],
  testMatch: process.env.MEMEX_TEST_SUITE === 'integration' ? INTEGRATION : ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swcrc, swcrc: false }],
    // The secretlint packages are ES modules only; Node loads them with require(), jest's
    // module system needs them compiled to CommonJS first.
    '^.+/node_modules/@secretlint/.+\\.js$': [
      '@swc/jest',
      { ...swcrc, jsc: { ...swcrc.jsc, parser: { syntax: 'ecmascript' } }, swcrc: false },
    ],
  },
  transformIgnorePatterns: ['/node_modules/(?!@secretlint/)'],
  moduleNameMapper: { '^@memex/(.*)$': '<rootDir>/libs/$1/src/index.ts' },
  setupFiles: ['reflect-metadata'],
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  testTimeout: 30_000,
  maxWorkers: 2,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
};
