/**
 * Secrets whose development values are published (in this repository, its README and its tests).
 * Anyone who has read them could forge what they protect: operator callbacks (OPERATOR_CALLBACK_SECRET),
 * calls to the operator (OPERATOR_API_TOKEN), every merchant's API secret at rest (MASTER_KEY), staff
 * sessions (SESSION_SECRET). A production process refuses to start while any of them is configured,
 * whether it came from a default or was set by hand.
 */

/** Development-only master key: `pnpm start` and `pnpm admin` use it when NODE_ENV is not production. */
export const DEV_MASTER_KEY = '6d6d2d6465762d6d61737465722d6b65792d6e6f742d666f722d70726f642121';

/** Development-only back-office session secret (the default outside production). */
export const DEV_SESSION_SECRET = 'mm-backoffice-dev-session-secret-not-for-production';

/** The operator simulator's published token and callback secret (the defaults of the `operator` fragment). */
export const SIMULATOR_API_TOKEN = 'sim-token';
export const SIMULATOR_CALLBACK_SECRET = 'sim-callback-secret';

const PUBLISHED: Readonly<Record<string, readonly string[]>> = {
  MASTER_KEY: [DEV_MASTER_KEY],
  SESSION_SECRET: [DEV_SESSION_SECRET],
  OPERATOR_API_TOKEN: [SIMULATOR_API_TOKEN],
  OPERATOR_CALLBACK_SECRET: [SIMULATOR_CALLBACK_SECRET],
};

/** The same 32 bytes written in hex or base64 are the same key. */
function keyBytes(value: string): string {
  const bytes = /^[0-9a-fA-F]{64}$/.test(value) ? Buffer.from(value, 'hex') : Buffer.from(value, 'base64');
  return bytes.toString('hex');
}

function isPublished(name: string, value: string): boolean {
  const published = PUBLISHED[name] ?? [];
  if (name === 'MASTER_KEY') return published.some((p) => keyBytes(p) === keyBytes(value));
  return published.includes(value.trim());
}

/** Names of the variables of `env` that hold a published value. */
export function publishedSecretsIn(env: Readonly<Record<string, unknown>>): string[] {
  return Object.keys(PUBLISHED).filter((name) => typeof env[name] === 'string' && isPublished(name, env[name]));
}

/**
 * One check for every service: with NODE_ENV=production, any published secret in the parsed
 * environment is refused, naming the variables (never their values).
 */
export function assertNoPublishedSecrets(env: Readonly<Record<string, unknown>>, nodeEnv: string | undefined): void {
  if (nodeEnv !== 'production') return;
  const found = publishedSecretsIn(env);
  if (found.length > 0) {
    throw new Error(
      `invalid environment: ${found.join(', ')} hold${found.length === 1 ? 's' : ''} a published development value; set a secret of your own (NODE_ENV=production)`,
    );
  }
}
