/**
 * Every service refuses, with NODE_ENV=production, any published development secret it would use
 * (one shared check in @mm/config's parseEnv): left to its default or set by hand.
 */
import { DEV_MASTER_KEY, DEV_SESSION_SECRET, SIMULATOR_API_TOKEN, SIMULATOR_CALLBACK_SECRET } from '@mm/config';
import { parseEnv as backofficeEnv } from '@mm/backoffice';
import { parseEnv as expiryEnv } from '@mm/expiry-worker';
import { parseEnv as gatewayEnv } from '@mm/gateway';
import { parseEnv as bridgeEnv } from '@mm/operator-bridge';
import { parseEnv as refundEnv } from '@mm/refund-worker';
import { parseEnv as dispatcherEnv } from '@mm/webhook-dispatcher';

const own = {
  MASTER_KEY: 'b'.repeat(64),
  SESSION_SECRET: 'an-own-session-secret-of-at-least-32-chars',
  OPERATOR_API_TOKEN: 'operator-issued-token',
  OPERATOR_CALLBACK_SECRET: 'operator-issued-callback-secret',
};
const published = {
  MASTER_KEY: DEV_MASTER_KEY,
  SESSION_SECRET: DEV_SESSION_SECRET,
  OPERATOR_API_TOKEN: SIMULATOR_API_TOKEN,
  OPERATOR_CALLBACK_SECRET: SIMULATOR_CALLBACK_SECRET,
};

// Which of the four each service reads (the others are stripped from its environment).
const services: [string, (source: NodeJS.ProcessEnv) => unknown, (keyof typeof own)[]][] = [
  ['gateway', gatewayEnv, ['MASTER_KEY']],
  ['backoffice', backofficeEnv, ['MASTER_KEY', 'SESSION_SECRET']],
  ['operator-bridge', bridgeEnv, ['OPERATOR_API_TOKEN', 'OPERATOR_CALLBACK_SECRET']],
  ['expiry-worker', expiryEnv, ['OPERATOR_API_TOKEN', 'OPERATOR_CALLBACK_SECRET']],
  ['refund-worker', refundEnv, ['OPERATOR_API_TOKEN', 'OPERATOR_CALLBACK_SECRET']],
  ['webhook-dispatcher', dispatcherEnv, ['MASTER_KEY']],
];

describe.each(services)('%s in production', (_name, parse, secrets) => {
  it('starts with secrets of its own', () => {
    expect(() => parse({ NODE_ENV: 'production', DEPLOYMENT_MODE: 'live', ...own })).not.toThrow();
  });

  it.each(secrets)('refuses the published %s, set by hand', (name) => {
    expect(() => parse({ NODE_ENV: 'production', DEPLOYMENT_MODE: 'live', ...own, [name]: published[name] })).toThrow(
      new RegExp(`${name} holds a published development value`),
    );
  });

  it('refuses to fall back to a published default', () => {
    const { MASTER_KEY, SESSION_SECRET } = own;
    // Only the two without a default must be set; the operator ones default to the simulator's values.
    const start = () => parse({ NODE_ENV: 'production', DEPLOYMENT_MODE: 'live', MASTER_KEY, SESSION_SECRET });
    if (secrets.includes('OPERATOR_API_TOKEN'))
      expect(start).toThrow(/OPERATOR_API_TOKEN, OPERATOR_CALLBACK_SECRET hold a published/);
    else expect(start).not.toThrow();
  });
});
