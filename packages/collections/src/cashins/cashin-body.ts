import type { OperatorCode } from '@mm/domain';

/** POST /payments/cashin's body once the API has checked its shape (the gateway's cashin-schema.ts). */
export interface CashinBody {
  /** Named by the merchant; otherwise chosen from the number (decisions, operator routing). */
  operator?: OperatorCode;
  merchant_order_id: string;
  amount: number;
  currency?: string;
  customer_msisdn: string;
  country_code?: string;
  motif?: string;
  return_url?: string;
  notify_url?: string;
  metadata?: Record<string, string | number | boolean>;
}
