// `pnpm test:containers`: the images built here (containers/build-images.ts, run first by the script)
// run for real under podman, with Docker Compose and `podman kube play`. One suite at a time: they
// publish the same ports (3000-3004) and two cores build and run the containers.
import base from './jest.config.js';

export default {
  ...base,
  roots: ['<rootDir>/containers'],
  testMatch: ['**/*.containers.test.ts'],
  maxWorkers: 1,
  testTimeout: 600_000,
  forceExit: true,
};
