import { operator } from './fragments.js';
import { parseEnv } from './parse-env.js';
import Joi from 'joi';

const schema = Joi.object({ ...operator, NODE_ENV: Joi.string().default('test') });

describe('operator fragment', () => {
  it('the breaker: 10 unreachable answers in a row, a probe every 30 s by default; 0 turns it off; nothing negative', () => {
    expect(parseEnv(schema, {})).toMatchObject({ OPERATOR_BREAKER_THRESHOLD: 10, OPERATOR_BREAKER_PROBE_S: 30 });
    expect(parseEnv(schema, { OPERATOR_BREAKER_THRESHOLD: '0', OPERATOR_BREAKER_PROBE_S: '0.05' })).toMatchObject({ OPERATOR_BREAKER_THRESHOLD: 0, OPERATOR_BREAKER_PROBE_S: 0.05 });
    expect(() => parseEnv(schema, { OPERATOR_BREAKER_THRESHOLD: '-1', OPERATOR_BREAKER_PROBE_S: '0' })).toThrow(/OPERATOR_BREAKER_THRESHOLD.*OPERATOR_BREAKER_PROBE_S/);
  });
});
