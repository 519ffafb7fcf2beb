export {
  startWorkerService,
  type JobMap,
  type JobSpec,
  type RunningWorkerService,
  type WorkerContext,
  type WorkerServiceOptions,
} from './start-worker-service.js';
export { parkFailingJobs, type JobParkingDeps } from './job-parking.js';
export { commitMove, commitStep, type StepContext } from './commit-step.js';
export { startOperatorDirectory } from './operator-directory.js';
export { askAgainLater, ASK_AGAIN_AFTER_S } from './ask-again-later.js';
export { lateSuccessReturns, type LateSuccessOutcome } from './late-success-metric.js';
