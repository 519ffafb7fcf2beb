export { parseEnv } from './parse-env.js';
export { common, masterKey, operator, secondsList, parseSecondsList, DEV_MASTER_KEY, DEMO_MERCHANT } from './fragments.js';
export { default as Joi } from 'joi';
