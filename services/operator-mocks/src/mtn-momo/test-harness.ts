import { randomInt } from 'node:crypto';
import {
  createAccountAdapter,
  mtnReferenceId,
  type DisbursementRequest,
  type OperatorAdapter,
  type PaymentLookup,
  type UssdPushRequest,
} from '@mm/operators';
import { startReceiver, type Receiver } from '@mm/testing';
import { startMtnMomoMock, type RunningMtnMomoMock } from './mock.js';
import { DEMO_SUBSCRIPTION_KEYS, type MtnApiUserSeed, type MtnMomoMockOptions } from './options.js';

export const COLLECTION_USER: MtnApiUserSeed = {
  userId: '0b7c3e5a-6f1d-4c2b-9a8e-1d2c3b4a5f60',
  apiKey: 'collection-api-key-test',
  product: 'collection',
  providerCallbackHost: '127.0.0.1',
};
export const DISBURSEMENT_USER: MtnApiUserSeed = {
  userId: '5d9e2f1a-3b4c-4d5e-8f6a-7b8c9d0e1f20',
  apiKey: 'disbursement-api-key-test',
  product: 'disbursement',
  providerCallbackHost: '127.0.0.1',
};

/** The credentials an mtn-momo operator account holds (the names createAccountAdapter reads). */
export function accountCredentials(overrides: Record<string, string> = {}): Record<string, string> {
  return {
    collectionSubscriptionKey: DEMO_SUBSCRIPTION_KEYS.collection,
    collectionApiUser: COLLECTION_USER.userId,
    collectionApiKey: COLLECTION_USER.apiKey,
    disbursementSubscriptionKey: DEMO_SUBSCRIPTION_KEYS.disbursement,
    disbursementApiUser: DISBURSEMENT_USER.userId,
    disbursementApiKey: DISBURSEMENT_USER.apiKey,
    ...overrides,
  };
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const newReference = (): string => `MM${Array.from({ length: 20 }, () => BASE32[randomInt(32)]).join('')}`;

export interface MtnHarness {
  mock: RunningMtnMomoMock;
  receiver: Receiver;
  adapter: OperatorAdapter;
  adapterWith(o: {
    timeoutMs?: number;
    credentials?: Record<string, string>;
    targetEnvironment?: string;
  }): OperatorAdapter;
  /** A push from the Côte d'Ivoire number +22505000000<suffix>, with a fresh reference and its callback URL. */
  request(suffix: string, overrides?: Partial<UssdPushRequest>): UssdPushRequest;
  /** A payout to +22505000000<suffix>. */
  payout(suffix: string): DisbursementRequest;
  lookup(req: PaymentLookup): PaymentLookup;
  /** The mock's record of a reference (by its derived X-Reference-Id). */
  record(partnerReference: string): ReturnType<RunningMtnMomoMock['control']['record']>;
  /** A token of `product` fetched by hand (for calls the adapter would not make). */
  token(product: 'collection' | 'disbursement'): Promise<string>;
  /** A call by hand with a Bearer token and the product's subscription key. */
  raw(
    method: string,
    path: string,
    token: string,
    product: 'collection' | 'disbursement',
    o?: { headers?: Record<string, string>; body?: unknown },
  ): Promise<Response>;
  close(): Promise<void>;
}

/** A mock on a free port with ms-scale delays (a live market, XOF), a callback receiver, and an adapter built by the registry. */
export async function startMtnHarness(options: MtnMomoMockOptions = {}): Promise<MtnHarness> {
  const receiver = await startReceiver();
  const targetEnvironment = options.targetEnvironment ?? 'mtnivorycoast';
  const mock = await startMtnMomoMock({
    port: 0,
    apiUsers: [COLLECTION_USER, DISBURSEMENT_USER],
    targetEnvironment,
    outcomeDelayMs: 300,
    lateConfirmDelayMs: 1_000,
    createdDelayMs: 200,
    sandboxExpiryMs: 200,
    disbursementDelayMs: 150,
    ...options,
  });
  const adapterWith: MtnHarness['adapterWith'] = (o) =>
    createAccountAdapter('mtn-momo', {
      baseUrl: mock.url,
      credentials: o.credentials ?? accountCredentials(),
      settings: { targetEnvironment: o.targetEnvironment ?? targetEnvironment },
      timeoutMs: o.timeoutMs ?? 2_000,
    });
  return {
    mock,
    receiver,
    adapterWith,
    adapter: adapterWith({}),
    request: (suffix, overrides = {}) => {
      const partnerReference = overrides.partnerReference ?? newReference();
      return {
        partnerReference,
        msisdn: `+22505000000${suffix}`,
        amount: 5000,
        currency: 'XOF',
        motif: 'Commande 42',
        callbackUrl: `${receiver.url}/${partnerReference}`,
        ...overrides,
      };
    },
    payout: (suffix) => ({
      partnerReference: newReference(),
      msisdn: `+22505000000${suffix}`,
      amount: 2500,
      currency: 'XOF',
      reason: 'Payout 7',
    }),
    lookup: (req) => ({
      partnerReference: req.partnerReference,
      msisdn: req.msisdn,
      amount: req.amount,
      currency: req.currency,
    }),
    record: (partnerReference) => mock.control.record(mtnReferenceId(partnerReference)),
    token: async (product) => {
      const user = product === 'collection' ? COLLECTION_USER : DISBURSEMENT_USER;
      const res = await fetch(`${mock.url}/${product}/token/`, {
        method: 'POST',
        body: '',
        headers: {
          'Ocp-Apim-Subscription-Key': DEMO_SUBSCRIPTION_KEYS[product],
          Authorization: `Basic ${Buffer.from(`${user.userId}:${user.apiKey}`).toString('base64')}`,
        },
      });
      return ((await res.json()) as { access_token: string }).access_token;
    },
    raw: (method, path, token, product, o = {}) =>
      fetch(`${mock.url}${path}`, {
        method,
        headers: {
          'Ocp-Apim-Subscription-Key': DEMO_SUBSCRIPTION_KEYS[product],
          Authorization: `Bearer ${token}`,
          'X-Target-Environment': targetEnvironment,
          'Content-Type': 'application/json',
          ...o.headers,
        },
        ...(o.body === undefined ? {} : { body: JSON.stringify(o.body) }),
      }),
    close: async () => {
      await mock.close();
      await receiver.close();
    },
  };
}
