// `pnpm test:chaos`: the fault-injection suite. Every service runs as its own process, so the suites
// run one at a time (two cores), each with its own database, Redis server and ports.
import base from './jest.config.js';

export default {
  ...base,
  roots: ['<rootDir>/chaos'],
  maxWorkers: 1,
  testTimeout: 180_000,
  // After a failed suite a load may still be retrying against a stopped gateway; exiting kills it, and
  // the child registry's exit hook kills any process a failed start left behind.
  forceExit: true,
};
