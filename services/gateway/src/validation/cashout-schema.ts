import Joi from 'joi';
import type { CashoutBody } from '@mm/collections';
import { httpUrl, operatorField, orderId } from './cashin-schema.js';

export const cashoutSchema = Joi.object<CashoutBody>({
  operator: operatorField,
  merchant_order_id: orderId.required(),
  amount: Joi.number().integer().positive().unsafe(false).required(),
  beneficiary_msisdn: Joi.string().max(20).required(),
  currency: Joi.string().pattern(/^[A-Z]{3}$/),
  reason: Joi.string().max(255),
  notify_url: httpUrl,
});
