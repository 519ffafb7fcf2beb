import Joi from 'joi';
import type { OperatorCode } from '@mm/domain';
import { httpUrl, operatorField, orderId } from './cashin-schema.js';

export interface CashoutBody {
  /** Named by the merchant; otherwise chosen from the number (decisions, operator routing). */
  operator?: OperatorCode;
  merchant_order_id: string;
  amount: number;
  beneficiary_msisdn: string;
  currency?: string;
  reason?: string;
  notify_url?: string;
}

export const cashoutSchema = Joi.object<CashoutBody>({
  operator: operatorField,
  merchant_order_id: orderId.required(),
  amount: Joi.number().integer().positive().unsafe(false).required(),
  beneficiary_msisdn: Joi.string().max(20).required(),
  currency: Joi.string().pattern(/^[A-Z]{3}$/),
  reason: Joi.string().max(255),
  notify_url: httpUrl,
});
