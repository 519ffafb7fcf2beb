import {
  common,
  Joi,
  mail,
  masterKey,
  nodeEnv,
  parseEnv as parse,
  paymentRules,
  webApp,
  type CommonEnv,
  type MailEnv,
  type NodeEnvEnv,
  type PaymentRulesEnv,
  type WebAppEnv,
} from '@mm/config';

export interface MerchantPortalEnv extends CommonEnv, MailEnv, NodeEnvEnv, WebAppEnv, PaymentRulesEnv {
  MERCHANT_PORTAL_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never exposed to merchants. */
  MERCHANT_PORTAL_INTERNAL_PORT: number;
  /**
   * Seals the users' TOTP secrets and the secrets of the API keys created here. It must be the gateway's
   * key, or the gateway could not open the secrets of keys rolled in the portal.
   */
  MASTER_KEY: string;
  /**
   * The gateway as customers reach it (its PUBLIC_BASE_URL): a payment link's address and QR code are
   * `<this>/l/<slug>`, shown and downloaded in the Payment links area. Without a trailing slash.
   */
  GATEWAY_PUBLIC_URL: string;
}

const schema = Joi.object<MerchantPortalEnv>({
  ...common,
  ...mail,
  ...masterKey,
  ...nodeEnv,
  ...webApp,
  // The gateway's names and defaults: a cash-out from the dashboard is bounded and held as one from the API.
  ...paymentRules,
  MERCHANT_PORTAL_PORT: Joi.number().port().default(3008),
  MERCHANT_PORTAL_INTERNAL_PORT: Joi.number().port().default(3108),
  GATEWAY_PUBLIC_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .replace(/\/+$/, '')
    .default('http://127.0.0.1:3000'),
});

export function parseEnv(source: NodeJS.ProcessEnv): MerchantPortalEnv {
  return parse(schema, source);
}
