import type { Db } from '@mm/db';
import { recordAudit } from '@mm/db/staff';
import { resendWebhookEvent } from '@mm/db/webhooks';
import type { OutboxPublisher } from '@mm/queues';
import { auditAction, type AuditContext } from '../audit-context.js';

export interface ResendWebhooksDeps {
  db: Db;
  /** Publishes each re-opened event's delivery job right after its commit. */
  publisher: Pick<OutboxPublisher, 'publish'>;
}

export interface ResendOutcome {
  resent: string[];
  /** Not ABANDONED any more (re-sent by someone else meanwhile, or unknown): nothing changed for them. */
  skipped: string[];
}

/**
 * Re-sends abandoned webhook deliveries (decisions 9), each in its own database transaction with its
 * own audit row: one event's failure does not undo the others, and each transaction takes a single
 * transaction-row lock (several in one could deadlock against the dispatcher taking them in another
 * order). Each event's job is published right after its commit; if that publish fails, the outbox
 * relay publishes it anyway (the re-opened row is due at once).
 *
 * Only ABANDONED events: a failing one (still PENDING) already has its next attempt scheduled, and a
 * second round of attempts would race it.
 */
export async function resendWebhooks(
  deps: ResendWebhooksDeps,
  context: AuditContext,
  eventIds: string[],
  /** The merchant portal's: an event of another merchant is skipped like an unknown one. */
  scope: { merchantId?: string } = {},
): Promise<ResendOutcome> {
  const outcome: ResendOutcome = { resent: [], skipped: [] };
  for (const eventId of eventIds) {
    const row = await deps.db.$transaction(async (tx) => {
      const before = await tx.webhookEvent.findUnique({
        where: { id: eventId },
        select: { status: true, attemptCount: true, merchantId: true },
      });
      if (!before || before.status !== 'ABANDONED') return null;
      if (scope.merchantId !== undefined && before.merchantId !== scope.merchantId) return null;
      // Re-checks ABANDONED under the transaction's row lock: of two staff re-sending at once, one wins.
      const reopened = await resendWebhookEvent(tx, eventId);
      if (!reopened) return null;
      await recordAudit(tx, {
        ...context,
        action: auditAction(context, 'webhook.resend'),
        targetType: 'webhook_event',
        targetId: eventId,
        before: { status: 'ABANDONED', attempt_count: before.attemptCount },
        after: { status: 'PENDING' },
      });
      return reopened;
    });
    if (row === null) {
      outcome.skipped.push(eventId);
      continue;
    }
    outcome.resent.push(eventId);
    // No transaction changed state: the row is published, nothing is announced.
    await deps.publisher.publish([row]);
  }
  return outcome;
}
