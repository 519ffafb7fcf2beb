import {
  common,
  Joi,
  masterKey,
  nodeEnv,
  parseEnv as parse,
  webApp,
  type CommonEnv,
  type NodeEnvEnv,
  type WebAppEnv,
} from '@mm/config';

export interface MerchantPortalEnv extends CommonEnv, NodeEnvEnv, WebAppEnv {
  MERCHANT_PORTAL_PORT: number;
  /** /ready and /metrics (and /health): for probes and Prometheus, never exposed to merchants. */
  MERCHANT_PORTAL_INTERNAL_PORT: number;
  /**
   * Seals the users' TOTP secrets and the secrets of the API keys created here. It must be the gateway's
   * key, or the gateway could not open the secrets of keys rolled in the portal.
   */
  MASTER_KEY: string;
  /** Where invitations and password resets go out: smtp://[user:pass@]host:port, or smtps://. */
  SMTP_URL: string;
  /** Their From header. */
  MAIL_FROM: string;
  /** The portal as merchants reach it (https://dashboard.example.com): the links in mails start with it. */
  PORTAL_PUBLIC_URL: string;
}

const schema = Joi.object<MerchantPortalEnv>({
  ...common,
  ...masterKey,
  ...nodeEnv,
  ...webApp,
  MERCHANT_PORTAL_PORT: Joi.number().port().default(3008),
  MERCHANT_PORTAL_INTERNAL_PORT: Joi.number().port().default(3108),
  // The local mailbox of `pnpm start` by default; a real deployment names its own relay and address.
  SMTP_URL: Joi.string()
    .uri({ scheme: ['smtp', 'smtps'] })
    .default('smtp://127.0.0.1:1025'),
  MAIL_FROM: Joi.string().max(200).default('Merchant dashboard <no-reply@localhost>'),
  PORTAL_PUBLIC_URL: Joi.string()
    .uri({ scheme: ['http', 'https'] })
    .replace(/\/+$/, '')
    .default('http://127.0.0.1:3008'),
});

export function parseEnv(source: NodeJS.ProcessEnv): MerchantPortalEnv {
  return parse(schema, source);
}
