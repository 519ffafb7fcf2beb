import {
  common,
  Joi,
  mail,
  masterKey,
  nodeEnv,
  parseEnv as parse,
  webApp,
  type CommonEnv,
  type MailEnv,
  type NodeEnvEnv,
  type WebAppEnv,
} from '@mm/config';

export interface MerchantPortalEnv extends CommonEnv, MailEnv, NodeEnvEnv, WebAppEnv {
  MERCHANT_PORTAL_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never exposed to merchants. */
  MERCHANT_PORTAL_INTERNAL_PORT: number;
  /**
   * Seals the users' TOTP secrets and the secrets of the API keys created here. It must be the gateway's
   * key, or the gateway could not open the secrets of keys rolled in the portal.
   */
  MASTER_KEY: string;
}

const schema = Joi.object<MerchantPortalEnv>({
  ...common,
  ...mail,
  ...masterKey,
  ...nodeEnv,
  ...webApp,
  MERCHANT_PORTAL_PORT: Joi.number().port().default(3008),
  MERCHANT_PORTAL_INTERNAL_PORT: Joi.number().port().default(3108),
});

export function parseEnv(source: NodeJS.ProcessEnv): MerchantPortalEnv {
  return parse(schema, source);
}
