import Joi from 'joi';
import { uuidField } from './uuid.js';

export interface RefundBody {
  transaction_id: string;
  amount?: number;
  reason?: string;
}

export const refundSchema = Joi.object<RefundBody>({
  transaction_id: uuidField().required(),
  amount: Joi.number().integer().positive().unsafe(false),
  reason: Joi.string().max(255),
});

/** Optional header: 1-255 visible ASCII characters. */
export const idempotencyKeySchema = Joi.string().min(1).max(255).pattern(/^[\x21-\x7E]+$/);
