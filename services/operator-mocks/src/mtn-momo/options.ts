import type { RecordJournal } from '@mm/fake-operator';
import { DEMO_MTN } from '../demo-credentials.js';

export type MtnMockProduct = 'collection' | 'disbursement';

/** An API user the mock knows from the start (the demo's), as MTN's provisioning would have created it. */
export interface MtnApiUserSeed {
  userId: string;
  apiKey: string;
  product: MtnMockProduct;
  providerCallbackHost: string;
}

export interface MtnMomoMockOptions {
  /** The Ocp-Apim-Subscription-Key of each product (MTN gives one per product). */
  subscriptionKeys?: Record<MtnMockProduct, string>;
  apiUsers?: MtnApiUserSeed[];
  /** The X-Target-Environment it serves: `sandbox` (EUR only, as MTN's) or a live name (e.g. `mtnivorycoast`). */
  targetEnvironment?: string;
  /** Currencies accepted outside `sandbox`; the first is the account's own (its balance without a currency). */
  currencies?: string[];
  /** Each product's account balance before the mock's first movement (GET /{product}/v1_0/account/balance). */
  openingBalances?: Record<MtnMockProduct, number>;
  /** Lifetime of issued tokens (MTN: 3600). */
  tokenLifetimeS?: number;
  /** When a scripted outcome is decided. */
  outcomeDelayMs?: number;
  /** When a number ending 09 succeeds (past our expiry, in the demo). */
  lateConfirmDelayMs?: number;
  /** How long 46733123454 stays CREATED before turning SUCCESSFUL. */
  createdDelayMs?: number;
  /** When 46733123453 (PENDING) turns FAILED EXPIRED. */
  sandboxExpiryMs?: number;
  /** When refunds and transfers are decided. */
  disbursementDelayMs?: number;
  /** `string` as the sandbox sends it, or `object` ({code, message}) as the OpenAPI file describes it. */
  reasonFormat?: 'string' | 'object';
  /** Where its requests to pay, refunds and transfers are kept (in memory by default; opened and closed by the caller). */
  records?: RecordJournal;
}

export type ResolvedMtnOptions = Required<Omit<MtnMomoMockOptions, 'records'>>;

export const DEMO_SUBSCRIPTION_KEYS: Record<MtnMockProduct, string> = DEMO_MTN.subscriptionKeys;

export function resolveOptions(o: MtnMomoMockOptions): ResolvedMtnOptions {
  return {
    subscriptionKeys: o.subscriptionKeys ?? DEMO_SUBSCRIPTION_KEYS,
    apiUsers: o.apiUsers ?? demoApiUsers('127.0.0.1'),
    targetEnvironment: o.targetEnvironment ?? 'sandbox',
    currencies: o.currencies ?? ['XOF', 'XAF'],
    openingBalances: o.openingBalances ?? { collection: 0, disbursement: 1_000_000 },
    tokenLifetimeS: o.tokenLifetimeS ?? 3600,
    outcomeDelayMs: o.outcomeDelayMs ?? 3_000,
    lateConfirmDelayMs: o.lateConfirmDelayMs ?? 120_000,
    createdDelayMs: o.createdDelayMs ?? 30_000,
    sandboxExpiryMs: o.sandboxExpiryMs ?? 180_000,
    disbursementDelayMs: o.disbursementDelayMs ?? 3_000,
    reasonFormat: o.reasonFormat ?? 'string',
  };
}

/**
 * The demo's API users (fixed, so an operator account can be seeded with them), as MTN's provisioning would have
 * created them for `providerCallbackHost`: the host of the bridge's callback URL, or MTN refuses every push.
 */
export function demoApiUsers(providerCallbackHost: string): MtnApiUserSeed[] {
  return (['collection', 'disbursement'] as const).map((product) => ({
    ...DEMO_MTN.apiUsers[product],
    product,
    providerCallbackHost,
  }));
}
