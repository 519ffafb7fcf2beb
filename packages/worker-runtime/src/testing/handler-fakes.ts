import type { Job } from 'bullmq';
import type { AfterCommit } from '@mm/queues';

/** Handler tests: an afterCommit that publishes and announces nothing (the rows in PostgreSQL are what is checked). */
export const noEffects = { run: async () => undefined } as unknown as AfterCommit;

/** Handler tests: the job as BullMQ hands it over on attempt `attemptsMade + 1` of `attempts`. */
export const jobAt = (attemptsMade: number, attempts = 4) => ({ attemptsMade, opts: { attempts } }) as unknown as Job;
