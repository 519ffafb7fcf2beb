import Joi from 'joi';

/** Values of the `nodeEnv` fragment. */
export interface NodeEnvEnv {
  /** `production` turns on the checks that development and tests skip (e.g. no demo data, @mm/db). */
  NODE_ENV: string;
}

export const nodeEnv = {
  NODE_ENV: Joi.string().default('development'),
};
