export { parseEnv } from './parse-env.js';
export {
  common, masterKey, operator, referenceCache, relay, secondsList, parseSecondsList, DEV_MASTER_KEY, DEMO_MERCHANT, DEMO_STAFF,
  type CommonEnv, type OperatorEnv, type ReferenceCacheEnv, type RelayEnv,
} from './fragments.js';
export { default as Joi } from 'joi';
export { nodeEnv, type NodeEnvEnv } from './node-env.js';
