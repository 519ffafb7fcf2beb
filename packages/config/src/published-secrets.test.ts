import {
  assertNoPublishedSecrets,
  DEV_MASTER_KEY,
  DEV_SESSION_SECRET,
  publishedSecretsIn,
  SIMULATOR_API_TOKEN,
  SIMULATOR_CALLBACK_SECRET,
} from './published-secrets.js';
import { Joi, operator, parseEnv } from './index.js';

describe('published development secrets', () => {
  const published = {
    MASTER_KEY: DEV_MASTER_KEY,
    SESSION_SECRET: DEV_SESSION_SECRET,
    OPERATOR_API_TOKEN: SIMULATOR_API_TOKEN,
    OPERATOR_CALLBACK_SECRET: SIMULATOR_CALLBACK_SECRET,
  };

  it('finds each one, and the dev master key written in base64 as well', () => {
    expect(publishedSecretsIn(published).sort()).toEqual([
      'MASTER_KEY',
      'OPERATOR_API_TOKEN',
      'OPERATOR_CALLBACK_SECRET',
      'SESSION_SECRET',
    ]);
    expect(publishedSecretsIn({ MASTER_KEY: Buffer.from(DEV_MASTER_KEY, 'hex').toString('base64') })).toEqual([
      'MASTER_KEY',
    ]);
    expect(
      publishedSecretsIn({
        MASTER_KEY: 'a'.repeat(64),
        OPERATOR_CALLBACK_SECRET: 'an-operator-issued-secret',
        OTHER: SIMULATOR_API_TOKEN,
      }),
    ).toEqual([]);
  });

  it('refuses them in production only, naming the variables and never the values', () => {
    expect(() => assertNoPublishedSecrets(published, 'development')).not.toThrow();
    expect(() => assertNoPublishedSecrets(published, undefined)).not.toThrow();
    let message = '';
    try {
      assertNoPublishedSecrets(published, 'production');
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(
      /MASTER_KEY, SESSION_SECRET, OPERATOR_API_TOKEN, OPERATOR_CALLBACK_SECRET hold a published development value/,
    );
    for (const value of Object.values(published)) expect(message).not.toContain(value);
  });

  it('is part of parseEnv: an operator secret left to its default is refused in production', () => {
    const schema = Joi.object(operator);
    expect(parseEnv(schema, {}).OPERATOR_CALLBACK_SECRET).toBe(SIMULATOR_CALLBACK_SECRET);
    expect(() => parseEnv(schema, { NODE_ENV: 'production' })).toThrow(
      /OPERATOR_API_TOKEN, OPERATOR_CALLBACK_SECRET hold a published/,
    );
    expect(() =>
      parseEnv(schema, {
        NODE_ENV: 'production',
        OPERATOR_API_TOKEN: 'issued-token',
        OPERATOR_CALLBACK_SECRET: SIMULATOR_CALLBACK_SECRET,
      }),
    ).toThrow(/OPERATOR_CALLBACK_SECRET holds a published/);
    expect(
      parseEnv(schema, {
        NODE_ENV: 'production',
        OPERATOR_API_TOKEN: 'issued-token',
        OPERATOR_CALLBACK_SECRET: 'issued-secret',
      }),
    ).toMatchObject({ OPERATOR_API_TOKEN: 'issued-token', OPERATOR_CALLBACK_SECRET: 'issued-secret' });
  });
});
