import { Joi } from '@mm/config';
import { uuidField } from '../validate-body.js';
import type { RefundBody } from './refund-body.js';

/** POST /v1/refunds's body (the gateway) and the portal's refund form, checked by `validate`. */
export const refundSchema = Joi.object<RefundBody>({
  transaction_id: uuidField().required(),
  amount: Joi.number().integer().positive().unsafe(false),
  reason: Joi.string().max(255),
});

/** Optional header: 1-255 visible ASCII characters. */
export const idempotencyKeySchema = Joi.string()
  .min(1)
  .max(255)
  .pattern(/^[\x21-\x7E]+$/);
