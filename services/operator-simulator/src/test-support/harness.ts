import { randomUUID } from 'node:crypto';
import { SimulatorOperatorAdapter, type DisbursementRequest, type UssdPushRequest } from '@mm/operators';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '../index.js';
import type { Log } from '@mm/fake-operator';
import { startCallbackReceiver, type CallbackReceiver } from './callback-receiver.js';

export const API_TOKEN = 'test-token';
export const SANDBOX_TOKEN = 'test-sandbox-token-0123456789';
export const CALLBACK_SECRET = 'test-callback-secret';

export interface Harness {
  sim: RunningSimulator;
  receiver: CallbackReceiver;
  adapter: SimulatorOperatorAdapter;
  /** fetch() of a sandbox or phone path with the sandbox token, as every client of those routes sends it. */
  sandbox(path: string, init?: RequestInit): Promise<Response>;
  /** Every log event the simulator wrote, for waiting on things like "callback given up". */
  events: { event: string; fields: Record<string, unknown> }[];
  /** A push request for a test number ending in `suffix`, with a fresh reference. */
  request(suffix: string, overrides?: Partial<UssdPushRequest>): UssdPushRequest;
  /** A disbursement to a beneficiary number ending in `suffix`, with a fresh reference. */
  disbursement(suffix: string, overrides?: Partial<DisbursementRequest>): DisbursementRequest;
  adapterWith(overrides: { timeoutMs?: number; callbackSecret?: string; apiToken?: string }): SimulatorOperatorAdapter;
  close(): Promise<void>;
}

/** A simulator on a free port with fast outcomes, a local callback receiver, and an adapter pointed at both. */
export async function startHarness(
  options: Partial<SimulatorOptions> & { receiverStatus?: (attempt: number, reference: string) => number } = {},
): Promise<Harness> {
  const receiver = await startCallbackReceiver(options.receiverStatus);
  const events: Harness['events'] = [];
  const log: Log = (event, fields = {}) => {
    events.push({ event, fields });
  };
  const sim = await startSimulator({
    port: 0,
    host: '127.0.0.1',
    apiToken: API_TOKEN,
    sandboxToken: SANDBOX_TOKEN,
    callbackSecret: CALLBACK_SECRET,
    outcomeDelayMs: 30,
    lateConfirmDelayMs: 800,
    hangMs: 400,
    callbackRetryDelaysMs: [20, 20, 20],
    log,
    ...options,
  });
  const adapterWith: Harness['adapterWith'] = (overrides) =>
    new SimulatorOperatorAdapter({
      baseUrl: sim.url,
      apiToken: API_TOKEN,
      callbackSecret: CALLBACK_SECRET,
      timeoutMs: 2_000,
      ...overrides,
    });
  return {
    sim,
    receiver,
    adapter: adapterWith({}),
    sandbox: (path, init = {}) =>
      fetch(`${sim.url}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string> | undefined), Authorization: `Bearer ${SANDBOX_TOKEN}` },
      }),
    events,
    adapterWith,
    request: (suffix, overrides = {}) => ({
      partnerReference: `tx_${randomUUID()}`,
      msisdn: `+22507000000${suffix}`,
      amount: 1500,
      currency: 'XOF',
      motif: 'Order 42',
      callbackUrl: receiver.url,
      ...overrides,
    }),
    disbursement: (suffix, overrides = {}) => ({
      partnerReference: `co_${randomUUID()}`,
      msisdn: `+22507000000${suffix}`,
      amount: 2500,
      currency: 'XOF',
      reason: 'Payout 7',
      ...overrides,
    }),
    close: async () => {
      await sim.close();
      await receiver.close();
    },
  };
}
