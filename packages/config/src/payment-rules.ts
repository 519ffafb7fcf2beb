import Joi from 'joi';

/**
 * Values of the `paymentRules` fragment: the bounds and switches the payment use cases apply, the same
 * names and defaults wherever a payment is asked for (the gateway's API, the merchant portal's forms), so
 * a cash-out from the portal is allowed, bounded and held for approval exactly as one from the API.
 */
export interface PaymentRulesEnv {
  /** Retry-After of a 503 OPERATOR_UNAVAILABLE (the operator's account disabled or marked down). */
  OPERATOR_UNAVAILABLE_RETRY_AFTER_S: number;
  AMOUNT_MIN: number;
  AMOUNT_MAX: number;
  DISBURSEMENT_ENABLED: boolean;
  CASHOUT_APPROVAL_THRESHOLD: number;
  /** Rolling 24 h total of a merchant's cash-outs above which every one waits for an approver. */
  CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: number;
  /** The same, per beneficiary number. */
  CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: number;
}

export const paymentRules = {
  OPERATOR_UNAVAILABLE_RETRY_AFTER_S: Joi.number().integer().min(1).default(60),
  // In the schema, not after it: refused in the same message as any other problem of the environment.
  AMOUNT_MIN: Joi.number().integer().min(1).max(Joi.ref('AMOUNT_MAX')).default(100).messages({
    'number.max':
      '{{#label}} ({{#value}}) must not exceed AMOUNT_MAX ({{AMOUNT_MAX}}): every amount would be out of range',
  }),
  AMOUNT_MAX: Joi.number().integer().min(1).default(5_000_000),
  DISBURSEMENT_ENABLED: Joi.boolean().default(false),
  CASHOUT_APPROVAL_THRESHOLD: Joi.number().integer().min(1).default(1_000_000),
  // Safe by default: three threshold's worth a day leave without a person's look, and one to any one
  // number (so splitting a large payment to one wallet waits just like the payment would).
  CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL: Joi.number().integer().min(1).default(3_000_000),
  CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL: Joi.number().integer().min(1).default(1_000_000),
};

/** The cash-out rules of these settings, in the shape requestCashout's dependencies take them. */
export function cashoutRulesOf(env: PaymentRulesEnv) {
  return {
    limits: { min: env.AMOUNT_MIN, max: env.AMOUNT_MAX },
    disbursementEnabled: env.DISBURSEMENT_ENABLED,
    approvalRule: {
      threshold: env.CASHOUT_APPROVAL_THRESHOLD,
      merchantDailyTotal: env.CASHOUT_MERCHANT_DAILY_APPROVAL_TOTAL,
      beneficiaryDailyTotal: env.CASHOUT_BENEFICIARY_DAILY_APPROVAL_TOTAL,
    },
    unavailableRetryAfterS: env.OPERATOR_UNAVAILABLE_RETRY_AFTER_S,
  };
}

export type CashoutRules = ReturnType<typeof cashoutRulesOf>;
