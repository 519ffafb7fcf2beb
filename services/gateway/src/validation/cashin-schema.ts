import Joi from 'joi';
// The order id and operator fields are the cash-out schema's too (@mm/collections).
import { httpUrl, operatorField, orderId, type CashinBody } from '@mm/collections';

export const cashinSchema = Joi.object<CashinBody>({
  operator: operatorField,
  merchant_order_id: orderId.required(),
  amount: Joi.number().integer().positive().unsafe(false).required(),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .messages({ 'string.pattern.base': 'must be an ISO 4217 code such as XOF' }),
  customer_msisdn: Joi.string().max(20).required(),
  country_code: Joi.string()
    .pattern(/^[A-Z]{2}$/)
    .messages({ 'string.pattern.base': 'must be an ISO 3166 alpha-2 code such as CI' }),
  motif: Joi.string().max(255),
  return_url: httpUrl,
  notify_url: httpUrl,
  metadata: Joi.object()
    .max(10)
    .pattern(Joi.string().max(100), Joi.alternatives(Joi.string().max(500), Joi.number(), Joi.boolean())),
});
