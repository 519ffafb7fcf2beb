import Joi from 'joi';

export interface RefundBody {
  transaction_id: string;
  amount?: number;
  reason?: string;
}

export const refundSchema = Joi.object<RefundBody>({
  transaction_id: Joi.string().guid().required(),
  amount: Joi.number().integer().positive().unsafe(false),
  reason: Joi.string().max(255),
});

/** Optional header: 1-255 visible ASCII characters. */
export const idempotencyKeySchema = Joi.string().min(1).max(255).pattern(/^[\x21-\x7E]+$/);
