export { parseEnv } from './parse-env.js';
export { common, masterKey, operator, secondsList, parseSecondsList } from './fragments.js';
export { default as Joi } from 'joi';
