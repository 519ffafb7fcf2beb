import Joi from 'joi';

/** Environment variables several services share, with the defaults of architecture.md. */
export const common = {
  DATABASE_URL: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }).default('postgresql://postgres@127.0.0.1:5432/mobilemoney'),
  REDIS_URL: Joi.string().uri({ scheme: ['redis', 'rediss'] }).default('redis://127.0.0.1:6379'),
  /** Every Redis key starts with it: lets several deployments (or test suites) share one Redis. */
  REDIS_PREFIX: Joi.string().pattern(/^[A-Za-z0-9_-]+$/).default('mm'),
  LOG_LEVEL: Joi.string().valid('fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent').default('info'),
  DB_POOL_SIZE: Joi.number().integer().min(1).max(100).default(10),
};

export const masterKey = {
  /** 32 bytes, base64 or hex: encrypts API secrets at rest (AES-256-GCM). */
  MASTER_KEY: Joi.string().required(),
};

export const operator = {
  OPERATOR: Joi.string().valid('simulator').default('simulator'),
  OPERATOR_BASE_URL: Joi.string().uri({ scheme: ['http', 'https'] }).default('http://127.0.0.1:3003'),
  OPERATOR_API_TOKEN: Joi.string().default('sim-token'),
  OPERATOR_CALLBACK_SECRET: Joi.string().default('sim-callback-secret'),
  OPERATOR_TIMEOUT_MS: Joi.number().integer().min(50).default(10_000),
};

/** A list of seconds, decimals allowed so tests can run a schedule in milliseconds. */
export function secondsList() {
  return Joi.string().pattern(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?)*\s*$/);
}

export function parseSecondsList(value: string): number[] {
  return value.split(',').map((s) => Math.round(Number(s.trim()) * 1000));
}
