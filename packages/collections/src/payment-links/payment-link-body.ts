/** POST /payment-links's body once its shape is checked (payment-link-schema.ts). */
export interface PaymentLinkBody {
  description: string;
  country_code: string;
  amount?: number;
  min_amount?: number;
  max_amount?: number;
  reusable?: boolean;
  max_payments?: number;
  expires_at?: string;
  redirect_url?: string;
  metadata?: Record<string, string | number | boolean>;
}
