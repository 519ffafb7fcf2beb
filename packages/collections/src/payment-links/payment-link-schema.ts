import { Joi } from '@mm/config';
import { httpUrl } from '../webhooks/http-url.js';
import { uuidField } from '../validate-body.js';
import type { PaymentLinkBody } from './payment-link-body.js';

const amount = () => Joi.number().integer().positive().unsafe(false);

/** POST /v1/payment-links's body (the gateway) and the portal's form, checked by `validate`. */
export const paymentLinkSchema = Joi.object<PaymentLinkBody>({
  description: Joi.string().max(255).pattern(/\S/).required().messages({ 'string.pattern.base': 'must not be blank' }),
  country_code: Joi.string()
    .pattern(/^[A-Z]{2}$/)
    .required()
    .messages({ 'string.pattern.base': 'must be an ISO 3166 alpha-2 code such as CI' }),
  amount: amount(),
  min_amount: amount(),
  max_amount: amount(),
  reusable: Joi.boolean(),
  max_payments: Joi.number().integer().min(1).max(1_000_000),
  expires_at: Joi.string()
    .pattern(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/)
    .isoDate()
    .messages({ 'string.pattern.base': 'must be an RFC 3339 date-time such as 2026-12-31T23:59:59Z' }),
  redirect_url: httpUrl,
  metadata: Joi.object()
    .max(10)
    .pattern(Joi.string().max(100), Joi.alternatives(Joi.string().max(500), Joi.number(), Joi.boolean())),
});

/** GET /v1/payment-links's query. */
export const paymentLinkListSchema = Joi.object<{ status?: string; limit?: string; starting_after?: string }>({
  status: Joi.string().valid('ACTIVE', 'COMPLETED', 'EXPIRED', 'INACTIVE'),
  limit: Joi.string()
    .pattern(/^\d+$/)
    .custom((v: string, h) => (Number(v) >= 1 && Number(v) <= 100 ? v : h.error('any.invalid'))),
  starting_after: uuidField(),
});
