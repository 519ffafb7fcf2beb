import type { OperatorCode } from '@mm/domain';

/** POST /payments/cashout's body once the API has checked its shape (cashout-schema.ts, by the API and the portal). */
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
