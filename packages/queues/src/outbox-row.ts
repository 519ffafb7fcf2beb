/** The shape of an outbox row as the publisher needs it (the db package's OutboxRow satisfies it). */
export interface PublishableOutboxRow {
  id: string;
  topic: string;
  payload: Record<string, unknown>;
  availableAt: Date;
  run: number;
}

/** Far-future available_at: the row waits to be released and is not published. */
export const HELD_YEAR = 9999;
