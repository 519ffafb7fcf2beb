/**
 * Contract mock of Wave's Checkout and Payout APIs (api.wave.com) and its webhooks.
 *
 * From docs.wave.com/checkout and the 0xc007b/wave-api-client SDK: paths (`/v1/checkout/sessions`, `/search?
 * client_reference=`, `/:id/expire`, `/:id/refund`, `/v1/payout`, `/v1/payout/:id`, `/v1/payouts/search`),
 * `Authorization: Bearer wave_...` and the 401 codes, the session object (string amounts, checkout_status x
 * payment_status, last_payment_error, wave_launch_url, when_expires 30 minutes after creation), `{result: [...]}`
 * searches, errors `{code, message, details}` with kebab-case codes, payment error codes, payout statuses and
 * `payout_error {error_code, error_message}`, Idempotency-Key on payouts. Wave does not dedupe checkouts on
 * client_reference: two POSTs make two sessions.
 * From docs.wave.com/webhook: events `{id, type, data}`, `Wave-Signature: t=<unix>,v1=<hex>[,v1=...]`, hex
 * HMAC-SHA256(secret, t + raw body); the same event may arrive more than once. No payout or expiry event.
 * From integrators (a Wave "skill" page, third-party Wave clones): refund answers 200 with no body and is
 * idempotent, checkout-refund-failed when the payment did not succeed; expire answers 409 once not open
 * (its code, checkout-session-not-open, is the clones', not Wave's documented one).
 * The mock's own choices (not documented by Wave): a failed attempt leaves the session open with its
 * last_payment_error (integrators' tests: "still payable"); an expired or abandoned session reads
 * expired + cancelled; scripted outcomes by the payer's last two digits (outcomes.ts), applied on their own
 * after a delay (`autoPay`) or by the launch page; a repeated Idempotency-Key with another body is 409
 * idempotency-mismatch.
 * Reconciliation (docs.wave.com/balance-api; the item shape from 0xc007b/wave-api-client and integrators'
 * examples): GET /v1/transactions?date=&after= lists the day's executed transactions, `{page_info: {start_cursor,
 * end_cursor, has_next_page}, date, items}`, amounts as signed strings net of the fee (transactions-list.ts); GET
 * /v1/balance?include_subaccounts= answers `{amount, currency}` (0xc007b/wave-api-client), the balance after the last. The
 * mock's choices: a checkout fee of 1%, the fee's sign on refunds and payouts (no public source shows it), an
 * opening balance, and `/_mock/statement` and `/_mock/plant` (../statement.ts).
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { Plants, type RecordJournal, statementRoutes, TimerSet } from '@mm/fake-operator';
import { DEMO_WAVE } from '../demo-credentials.js';
import { waveApiRouter } from './api-routes.js';
import { controlRouter } from './control-routes.js';
import { FaultQueue, waveError, type WaveFault, type WaveOperation } from './faults.js';
import { launchPageRouter } from './launch-page.js';
import { PayoutBook, type MockPayout } from './payout-book.js';
import { SessionBook } from './session-book.js';
import { waveRecords } from './records.js';
import { eventSession, waveStatementLines } from './statement.js';
import type { MockRecords } from '../records.js';
import { WebhookSender, type Delivery, type WebhookFault } from './webhook-sender.js';

export interface WaveMockOptions {
  /** The one API key accepted (demo: DEMO_WAVE_API_KEY). */
  apiKey?: string;
  /** The wallet's registered webhook URL (absent: no events are sent). */
  webhookUrl?: string | null;
  /** Signing secret(s); two while rotating (one v1 each). */
  webhookSecret?: string | string[];
  webhookDelayMs?: number;
  earlyWebhookLeadMs?: number;
  staleWebhookBySeconds?: number;
  /** Wave: 30 minutes. */
  sessionLifetimeMs?: number;
  outcomeDelayMs?: number;
  lateConfirmDelayMs?: number;
  autoPay?: boolean;
  /** Base URL of the launch page in wave_launch_url (default: the host each request came to). */
  publicUrl?: string | null;
  payoutFeeRate?: number;
  /** Wave's checkout fee (1% in the mock), shown in its list of transactions. */
  checkoutFeeRate?: number;
  /** The wallet's balance before the mock's first transaction (its list shows the balance after each; GET /v1/balance the last). */
  openingBalance?: number;
  /** The wallet's currency, its balance's (XOF: the wallets of Côte d'Ivoire and Senegal). */
  walletCurrency?: string;
  /** Items per page of GET /v1/transactions. */
  transactionsPageSize?: number;
  /** Where its sessions and payouts are kept (in memory by default; opened and closed by the caller). */
  records?: RecordJournal;
  now?: () => number;
}

export interface WaveMockControl {
  session(id: string): Record<string, unknown> | null;
  sessionsFor(reference: string): Record<string, unknown>[];
  /** How many times a session's money went back to the customer (a repeated refund keeps it at 1). */
  refundsPaid(sessionId: string): number;
  payoutsFor(reference: string): MockPayout[];
  /** Wave's record of every checkout and payout by client_reference (our reference). */
  records(): MockRecords;
  complete(id: string): boolean;
  fail(id: string, code: string, message?: string): boolean;
  expireNow(id: string): boolean;
  fault(operation: WaveOperation, fault: WaveFault, times?: number): void;
  webhookFaults(faults: WebhookFault[]): void;
  sendEventForUnknownReference(): string;
  deliveries(): Delivery[];
  revokeApiKey(): void;
  reset(): void;
}

export const DEMO_WAVE_API_KEY = DEMO_WAVE.apiKey;
export const DEMO_WAVE_WEBHOOK_SECRET = DEMO_WAVE.webhookSecret;

export function createWaveMock(options: WaveMockOptions = {}): {
  app: express.Express;
  control: WaveMockControl;
  close(): void;
} {
  const timers = new TimerSet();
  const now = options.now ?? Date.now;
  const secrets = [options.webhookSecret ?? DEMO_WAVE_WEBHOOK_SECRET].flat();
  const webhooks = new WebhookSender({
    url: options.webhookUrl ?? null,
    secrets,
    delayMs: options.webhookDelayMs ?? 20,
    earlyLeadMs: options.earlyWebhookLeadMs ?? 300,
    staleBySeconds: options.staleWebhookBySeconds ?? 600,
    timers,
    now,
  });
  const delays = {
    outcomeDelayMs: options.outcomeDelayMs ?? 2_000,
    lateConfirmDelayMs: options.lateConfirmDelayMs ?? 60_000,
  };
  const plants = new Plants(now);
  const sessions = new SessionBook({
    timers,
    now,
    sessionLifetimeMs: options.sessionLifetimeMs ?? 30 * 60_000,
    ...delays,
    autoPay: options.autoPay ?? true,
    announce: (type, data) => webhooks.announce(type, eventSession(data, plants)),
    journal: options.records,
  });
  const payoutFeeRate = options.payoutFeeRate ?? 0.01;
  const payouts = new PayoutBook({ timers, now, ...delays, feeRate: payoutFeeRate, journal: options.records });
  const transactions = {
    checkoutFeeRate: options.checkoutFeeRate ?? 0.01,
    payoutFeeRate,
    openingBalance: options.openingBalance ?? 1_000_000,
    currency: options.walletCurrency ?? 'XOF',
    pageSize: options.transactionsPageSize ?? 100,
  };
  const faults = new FaultQueue();
  const auth = { apiKey: options.apiKey ?? DEMO_WAVE_API_KEY, revoked: false };

  const withSession = (id: string, fn: (s: NonNullable<ReturnType<SessionBook['get']>>) => void) => {
    const s = sessions.get(id);
    if (s) fn(s);
    return s !== undefined;
  };
  const control: WaveMockControl = {
    session: (id) => {
      const s = sessions.get(id);
      return s ? sessions.view(s) : null;
    },
    sessionsFor: (ref) => sessions.search(ref).map((s) => sessions.view(s)),
    refundsPaid: (id) => sessions.get(id)?.refundsPaid ?? 0,
    payoutsFor: (ref) => payouts.search(ref),
    records: () => waveRecords(sessions.all(), payouts.all()),
    complete: (id) => withSession(id, (s) => sessions.succeed(s)),
    fail: (id, code, message) => withSession(id, (s) => sessions.fail(s, code, message ?? code)),
    expireNow: (id) => withSession(id, (s) => sessions.expireNow(s)),
    fault: (op, f, times) => faults.add(op, f, times),
    webhookFaults: (f) => webhooks.injectFaults(f),
    sendEventForUnknownReference: () => webhooks.sendForUnknownReference(),
    deliveries: () => [...webhooks.deliveries],
    revokeApiKey: () => {
      auth.revoked = true;
    },
    reset: () => {
      faults.clear();
      auth.revoked = false;
      plants.clear();
    },
  };

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '16kb' }));
  app.use(express.urlencoded({ extended: false, limit: '1kb' }));
  app.use(
    waveApiRouter({
      sessions,
      payouts,
      faults,
      timers,
      auth,
      publicUrl: options.publicUrl ?? null,
      plants,
      transactions,
      now,
    }),
  );
  app.use(launchPageRouter(sessions));
  app.use(controlRouter(control));
  app.use(
    '/_mock',
    statementRoutes({
      lines: () => waveStatementLines(sessions.all(), payouts.all(), (id) => payouts.transactionIdOf(id)),
      plants,
    }),
  );
  app.use((_req, res) => waveError(res, 404, 'not-found', 'Not found.'));
  const onError: express.ErrorRequestHandler = (err: { status?: number }, _req, res, _next) => {
    const status = typeof err.status === 'number' && err.status >= 400 && err.status < 500 ? err.status : 500;
    waveError(
      res,
      status,
      status === 500 ? 'internal-server-error' : 'request-not-json',
      'The request could not be processed.',
    );
  };
  app.use(onError);
  return {
    app,
    control,
    close: () => {
      timers.clear();
      webhooks.stop();
    },
  };
}

export async function startWaveMock(
  options: WaveMockOptions & { port: number; host?: string },
): Promise<{ url: string; port: number; control: WaveMockControl; close(): Promise<void> }> {
  const mock = createWaveMock(options);
  const host = options.host ?? '127.0.0.1';
  const server: Server = await new Promise((resolve, reject) => {
    const s = mock.app.listen(options.port, host, () => resolve(s));
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    control: mock.control,
    close: async () => {
      mock.close();
      // Hung requests (the hang faults) would otherwise keep the server open.
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
