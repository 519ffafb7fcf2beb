// One jest run for the whole workspace: native ESM (the code runs as it does in production),
// TypeScript stripped by @swc/jest.
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/e2e', '<rootDir>/bench', '<rootDir>/scripts'],
  testMatch: ['**/*.test.ts'],
  // *.engines.test.ts need engines started from the machine's packages (PgBouncer): `pnpm test:engines`.
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '\\.engines\\.test\\.ts$'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: {
    '^(\\.{1,2}/.*)\\.js$': '$1',
    // Its ESM build imports JSON without an import attribute, which jest warns about in every suite.
    '^libphonenumber-js/max$': '<rootDir>/packages/domain/node_modules/libphonenumber-js/max/index.cjs',
  },
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
      },
    ],
  },
  maxWorkers: 2,
  testTimeout: 30000,
};
