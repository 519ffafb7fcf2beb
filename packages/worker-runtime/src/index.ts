export { startOutboxWorker, type OutboxWorkerOptions, type RunningOutboxWorker } from './start-outbox-worker.js';
