/**
 * Decisions 9: an event gets the schedule's 7 attempts (the first, then one retry after each delay
 * of WEBHOOK_RETRY_SCHEDULE_S), after which it is abandoned.
 *
 * A manual re-send of an abandoned event grants a fresh round of the same size. Attempt numbers keep
 * counting (webhook_attempts is UNIQUE(event_id, attempt_no), and the merchant's history stays whole),
 * so the position inside the current round is derived: a round only ends by abandonment after its
 * full budget, so every round starts at a multiple of the budget. (Changing the schedule's length
 * while events are abandoned shifts the rounds of those events if they are re-sent later.)
 */
export type NextStep = { kind: 'retry'; delayMs: number } | { kind: 'abandon' };

export function attemptsPerRound(scheduleMs: readonly number[]): number {
  return 1 + scheduleMs.length;
}

/** 1-based position of attempt `attemptNo` in its round. */
export function positionInRound(attemptNo: number, scheduleMs: readonly number[]): number {
  return ((attemptNo - 1) % attemptsPerRound(scheduleMs)) + 1;
}

/** What follows the failure of attempt `attemptNo` (1-based, counting every attempt ever made). */
export function afterFailedAttempt(attemptNo: number, scheduleMs: readonly number[]): NextStep {
  const delayMs = scheduleMs[positionInRound(attemptNo, scheduleMs) - 1];
  return delayMs === undefined ? { kind: 'abandon' } : { kind: 'retry', delayMs };
}
