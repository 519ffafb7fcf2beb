import Joi from 'joi';
import type { RefundBody } from '@mm/collections';
import { uuidField } from './uuid.js';

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
