import type { QueueProducer, RetentionRunJob } from '@mm/queues';

/** The one scheduler of retention runs in Redis, whichever replica wrote it last. */
export const RETENTION_SCHEDULER_ID = 'retention';

/**
 * Every replica of the expiry worker schedules the runs at start (an upsert: still one scheduler, one
 * job per turn). An interval of 0 removes the schedule, so that turning the job off takes effect.
 */
export async function scheduleRetention(producer: QueueProducer<RetentionRunJob>, intervalS: number): Promise<void> {
  if (intervalS === 0) {
    await producer.unschedule(RETENTION_SCHEDULER_ID);
    return;
  }
  await producer.schedule(RETENTION_SCHEDULER_ID, Math.round(intervalS * 1000), { trigger: 'schedule' });
}
