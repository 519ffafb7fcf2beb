import type { NewLinkTerms } from '@mm/domain';

/** POST /payment-links's body once its shape is checked (payment-link-schema.ts): the terms, and what the page shows. */
export interface PaymentLinkBody extends NewLinkTerms {
  description: string;
  country_code: string;
  redirect_url?: string;
  metadata?: Record<string, string | number | boolean>;
}
