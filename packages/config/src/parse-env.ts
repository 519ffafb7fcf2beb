import Joi from 'joi';
import { assertNoPublishedSecrets } from './published-secrets.js';

/**
 * Validates a service's environment once at boot. Returns typed values or throws one error listing
 * every bad variable, so a misconfigured service refuses to start instead of failing later. With
 * NODE_ENV=production it also refuses every published development secret the service would use.
 */
export function parseEnv<T>(schema: Joi.ObjectSchema<T>, source: NodeJS.ProcessEnv): T {
  const { value, error } = schema.validate(source, {
    abortEarly: false,
    allowUnknown: true,
    stripUnknown: true,
    convert: true,
  });
  if (error) {
    const problems = error.details.map((d) => `${d.path.join('.')}: ${d.message}`).join('; ');
    throw new Error(`invalid environment: ${problems}`);
  }
  assertNoPublishedSecrets(value as Record<string, unknown>, source.NODE_ENV);
  return value as T;
}
