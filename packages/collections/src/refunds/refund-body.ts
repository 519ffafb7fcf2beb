/** POST /refunds's body once the API has checked its shape (the gateway's refund-schema.ts). */
export interface RefundBody {
  transaction_id: string;
  amount?: number;
  reason?: string;
}
