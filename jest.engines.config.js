// `pnpm test:engines`: what needs real engines started from the machine's Debian packages (PgBouncer
// today): the *.engines.test.ts suites, and the whole e2e suite again with every service reaching
// PostgreSQL through PgBouncer in transaction pooling mode (E2E_DATABASE_POOLER=pgbouncer, set by the script).
import base from './jest.config.js';

export default {
  ...base,
  testMatch: ['**/*.engines.test.ts', '<rootDir>/e2e/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
};
