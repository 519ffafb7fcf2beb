import { Router } from 'express';
import Joi from 'joi';
import type { Db } from '@mm/db';
import { uuidField } from '../validation/uuid.js';
import { validate } from '../validation/validate.js';
import { merchantContext } from '../http/request-context.js';
import { presentWebhookEvent } from '../presenters/webhook-event-presenter.js';

const querySchema = Joi.object({
  transaction_id: uuidField(),
  limit: Joi.string()
    .pattern(/^\d+$/)
    .custom((v: string, h) => (Number(v) >= 1 && Number(v) <= 100 ? v : h.error('any.invalid'))),
});

/**
 * decisions 9: the merchant can see every delivery attempt of its webhooks (status code, latency,
 * error), newest events first.
 */
export function webhookEventsRouter(deps: { db: Db }): Router {
  const router = Router();
  router.get('/webhook-events', async (req, res) => {
    const q = validate(querySchema, { ...req.query }) as { transaction_id?: string; limit?: string };
    const events = await deps.db.webhookEvent.findMany({
      where: {
        merchantId: merchantContext(res).merchantId,
        ...(q.transaction_id ? { transactionId: q.transaction_id } : {}),
      },
      orderBy: { seq: 'desc' },
      take: Number(q.limit ?? 50),
      include: { attempts: { orderBy: { attemptNo: 'asc' } } },
    });
    res.json({ data: events.map(presentWebhookEvent) });
  });
  return router;
}
