import { Joi } from '@mm/config';
import { operatorField, orderId } from '../orders/order-fields.js';
import { httpUrl } from '../webhooks/http-url.js';
import type { CashoutBody } from './cashout-body.js';

/** POST /payments/cashout's body (the gateway) and the portal's cash-out form, checked by `validate`. */
export const cashoutSchema = Joi.object<CashoutBody>({
  operator: operatorField,
  merchant_order_id: orderId.required(),
  amount: Joi.number().integer().positive().unsafe(false).required(),
  beneficiary_msisdn: Joi.string().max(20).required(),
  currency: Joi.string().pattern(/^[A-Z]{3}$/),
  reason: Joi.string().max(255),
  notify_url: httpUrl,
});
