/** The shape of an outbox row as the publisher needs it (the db package's OutboxRow satisfies it). */
export interface PublishableOutboxRow {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
  availableAt: Date;
  run: number;
}

/**
 * available_at of a row that waits to be released (a webhook behind an earlier one of its
 * transaction): never published until then. This file has no imports so the db package can use it.
 */
export const HELD_UNTIL = new Date('9999-12-31T00:00:00.000Z');

export function isHeld(availableAt: Date): boolean {
  return availableAt.getTime() >= HELD_UNTIL.getTime();
}
