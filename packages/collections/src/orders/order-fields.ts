import { Joi } from '@mm/config';
import { OPERATORS } from '@mm/domain';

/** merchant_order_id of a cash-in or a cash-out: 1-100 printable ASCII characters without spaces. */
export const orderId = Joi.string()
  .min(1)
  .max(100)
  .pattern(/^[\x21-\x7E]+$/)
  .messages({
    'string.pattern.base': 'must contain printable ASCII characters without spaces',
  });

/** The operator a payment may name (decisions, operator routing); otherwise chosen from the number. */
export const operatorField = Joi.string().valid(...OPERATORS);
