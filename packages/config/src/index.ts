export { parseEnv } from './parse-env.js';
export {
  common,
  databaseOptions,
  directDatabaseUrl,
  masterKey,
  operator,
  readReplica,
  referenceCache,
  relay,
  retention,
  retentionPolicy,
  secondsList,
  parseSecondsList,
  DEMO_MERCHANT,
  DEMO_STAFF,
  DEMO_PAYMENT_LINK,
  DEMO_PORTAL_OWNER,
  type CommonEnv,
  type OperatorEnv,
  type ReadReplicaEnv,
  type ReferenceCacheEnv,
  type RelayEnv,
  type RetentionEnv,
} from './fragments.js';
export {
  assertNoPublishedSecrets,
  publishedSecretsIn,
  DEV_MASTER_KEY,
  DEV_SESSION_SECRET,
  SIMULATOR_API_TOKEN,
  SIMULATOR_CALLBACK_SECRET,
} from './published-secrets.js';
export { default as Joi } from 'joi';
export { nodeEnv, type NodeEnvEnv } from './node-env.js';
export { webApp, type WebAppEnv } from './web-app.js';
export { cashoutRulesOf, paymentRules, type CashoutRules, type PaymentRulesEnv } from './payment-rules.js';
export { mail, type MailEnv } from './mail.js';
