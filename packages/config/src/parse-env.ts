import Joi from 'joi';

/**
 * Validates a service's environment once at boot. Returns typed values or throws one error listing
 * every bad variable, so a misconfigured service refuses to start instead of failing later.
 */
export function parseEnv<T>(schema: Joi.ObjectSchema<T>, source: NodeJS.ProcessEnv): T {
  const { value, error } = schema.validate(source, { abortEarly: false, allowUnknown: true, stripUnknown: true, convert: true });
  if (error) {
    const problems = error.details.map((d) => `${d.path.join('.')}: ${d.message}`).join('; ');
    throw new Error(`invalid environment: ${problems}`);
  }
  return value as T;
}
