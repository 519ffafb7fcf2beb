export {
  createMtnMomoMock,
  startMtnMomoMock,
  type MtnMomoMock,
  type MtnMomoMockControl,
  type RunningMtnMomoMock,
} from './mock.js';
export { demoApiUsers, DEMO_SUBSCRIPTION_KEYS, type MtnApiUserSeed, type MtnMomoMockOptions } from './options.js';
export type { CallbackPlan } from './callbacks.js';
export type { MtnFault, MtnOperation } from './faults.js';
export type { MtnOutcome } from './outcomes.js';
