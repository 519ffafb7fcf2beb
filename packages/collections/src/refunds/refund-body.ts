/** POST /refunds's body once its shape is checked (refund-schema.ts, by the API and the portal). */
export interface RefundBody {
  transaction_id: string;
  amount?: number;
  reason?: string;
}
