export { startOutboxWorker, type OutboxWorkerOptions, type RunningOutboxWorker } from './start-outbox-worker.js';
export { parkFailingJobs, type JobParkingDeps } from './job-parking.js';
export { commitStep, type StepContext } from './commit-step.js';
