/**
 * Contract mock of Orange Money Cameroon's "mp" USSD push API (api-s1.orange.cm), as its integrators show it:
 * - POST /token, Basic login:password, form grant_type=client_credentials, a short-lived bearer (300 s in one
 *   capture; `tokenLifetimeMs`) that really expires; WSO2 gateway 401 faults (y-note.cm; the /token path and
 *   the "Send timeout" fault are WSO2 API Manager's, seen in karibu-cap's TS library tests).
 * - Every later call: Bearer + X-AUTH-TOKEN (karibu-cap/orange_money_apis_js src/cash-in).
 * - POST /omcoreapis/1.0.2/mp/init (no body) -> {message, data: {payToken}}; POST .../mp/pay {subscriberMsisdn
 *   (9 digits), channelUserMsisdn, pin, amount (string), orderId, description, notifUrl, payToken} -> 200
 *   {message, data: {..., status: PENDING}} or 417 {message: "60019 :: ...", data: {..., status: FAILED,
 *   inittxnstatus}} (karibu-cap's TS library); GET .../mp/paymentstatus/{payToken} -> {message, data};
 *   statuses INITIATED | PENDING | SUCCESSFULL | FAILED | EXPIRED | CANCELLED (karibu-cap src/utils).
 * - A pay token lives 7 minutes (`payTokenLifetimeMs`), then EXPIRED, and paying with it is refused; a second
 *   pay with a used token is refused (417: the mock's choice, no source shows that body); the same number and
 *   amount again within `duplicateWindowMs` is FAILED without a cause (CinetPay 606, operators-reference.md).
 * - Notifications: unsigned POST to notifUrl; lost, duplicated, sent before the pay's answer or ahead of the
 *   status on demand. No sandbox exists: outcomes follow the project's scripted last two digits (outcomes.ts).
 */
import express, { type Express, type Request, type RequestHandler } from 'express';
import { Plants, type RecordJournal, statementRoutes, TimerSet } from '@mm/fake-operator';
import { OrangeFaults, type OrangeFault } from '../orange-shared/faults.js';
import { listen, type Listening } from '../orange-shared/listen.js';
import { mockControlRoutes } from '../orange-shared/mock-routes.js';
import { Notifier, type NotificationFault } from '../orange-shared/notifier.js';
import { TokenIssuer } from '../orange-shared/tokens.js';
import { groupBy, recordsRoute, type MockRecords } from '../records.js';
import { MpPayments, type MpPayment, type PayRequest } from './payments.js';
import { mpStatementLines, plantedData } from './statement.js';

export interface OrangeMpMockOptions {
  clientId: string;
  clientSecret: string;
  xAuthToken: string;
  channelUserMsisdn: string;
  pin: string;
  tokenLifetimeMs?: number;
  payTokenLifetimeMs?: number;
  outcomeDelayMs?: number;
  lateConfirmDelayMs?: number;
  duplicateWindowMs?: number;
  notifyDelayMs?: number;
  hangMs?: number;
  now?: () => number; /** Where its payments are kept (in memory by default; opened and closed by the caller). */
  records?: RecordJournal;
}

export type MpOperation = 'token' | 'init' | 'pay' | 'status';

export interface OrangeMpMockControl {
  fault(operation: MpOperation, fault: OrangeFault, times?: number): void;
  notificationFault(fault: NotificationFault, times?: number): void;
  /** The next pay notifies its notifUrl (status PENDING) before answering. */
  notifyBeforePayAnswer(times?: number): void;
  /** Notifications go out this long before the status query shows the change. */
  setStatusLag(ms: number): void;
  /** Every bearer issued so far is refused from now on (expired mid-flight). */
  expireTokens(): void;
  tokensIssued(): number;
  payment(payToken: string): MpPayment | undefined;
  paysFor(orderId: string): number;
  /** Orange's record of every pay by orderId (our reference); mp has no refund or payout API. */
  records(): MockRecords;
  notifications: Notifier['sent'];
  /** Sends an arbitrary notification (for an unknown reference, say). */
  notify(url: string, body: Record<string, unknown>): void;
}

const WSO2_INVALID = {
  fault: {
    code: 900901,
    message: 'Invalid Credentials',
    description: 'Invalid Credentials. Make sure you have provided the correct security credentials',
  },
};
const API = '/omcoreapis/1.0.2/mp';

export function createOrangeMpMock(options: OrangeMpMockOptions): {
  app: Express;
  control: OrangeMpMockControl;
  close(): void;
} {
  const now = options.now ?? Date.now;
  const timers = new TimerSet();
  const faults = new OrangeFaults();
  const notifier = new Notifier({ timers, delayMs: options.notifyDelayMs ?? 20 });
  const tokens = new TokenIssuer({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    lifetimeMs: options.tokenLifetimeMs ?? 300_000,
    expiresInAsString: false,
    now,
  });
  const payments = new MpPayments({
    timers,
    notifier,
    now,
    payTokenLifetimeMs: options.payTokenLifetimeMs ?? 7 * 60_000,
    outcomeDelayMs: options.outcomeDelayMs ?? 3_000,
    lateConfirmDelayMs: options.lateConfirmDelayMs ?? 60_000,
    duplicateWindowMs: options.duplicateWindowMs ?? 60_000,
    journal: options.records,
  });
  const plants = new Plants(now);
  let earlyNotifications = 0;
  const hangMs = options.hangMs ?? 30_000;
  const fault = (op: MpOperation) => faults.middleware(op, timers, hangMs);

  const auth: RequestHandler = (req, res, next) => {
    if (tokens.check(req.headers.authorization) !== 'ok') {
      res.status(401).json(WSO2_INVALID);
      return;
    }
    if (req.headers['x-auth-token'] !== options.xAuthToken) {
      res.status(401).json({ message: 'X-AUTH-TOKEN invalide', data: null });
      return;
    }
    next();
  };

  const app = express();
  app.disable('x-powered-by');
  app.post(
    '/token',
    fault('token'),
    express.urlencoded({ extended: false, limit: '4kb' }),
    tokens.handler((status) => ({
      status,
      body: {
        error: status === 401 ? 'invalid_client' : 'unsupported_grant_type',
        error_description:
          status === 401
            ? 'A valid OAuth client could not be found for client_id'
            : 'grant_type must be client_credentials',
      },
    })),
  );
  app.use(API, express.json({ limit: '16kb' }));
  app.post(`${API}/init`, fault('init'), auth, (_req, res) => {
    const p = payments.init();
    res.json({ message: 'Payment request successfully initiated', data: { payToken: p.payToken } });
  });
  app.post(`${API}/pay`, fault('pay'), auth, async (req, res) => {
    const body = payRequestOf(req);
    if (!body) {
      res.status(400).json({ message: 'Requete invalide', data: null });
      return;
    }
    if (body.channelUserMsisdn !== options.channelUserMsisdn || body.pin !== options.pin) {
      res.status(417).json({ message: '00017 :: Code secret du compte marchand incorrect', data: null });
      return;
    }
    const answer = payments.pay(body);
    if (answer.status === 200 && answer.data && earlyNotifications > 0) {
      earlyNotifications -= 1;
      await notifier.postNow(body.notifUrl, { payToken: answer.data.payToken, status: 'PENDING', txnid: null });
    }
    res.status(answer.status).json({ message: answer.message, data: answer.data });
  });
  app.get(`${API}/paymentstatus/:payToken`, fault('status'), auth, (req, res) => {
    const found = payments.get(String(req.params.payToken));
    // Planted differences (statement.ts) are Orange's word too.
    const p =
      found &&
      plantedData(
        found,
        plants.on({ reference: found.orderId, operatorTxId: found.status === 'SUCCESSFULL' ? found.txnid : null }),
      );
    if (!p) {
      res.status(404).json({ message: 'Transaction introuvable', data: null });
      return;
    }
    res.json({ message: 'Transaction retrieved successfully', data: p });
  });
  app.use(
    '/_mock',
    express.json({ limit: '16kb' }),
    mockControlRoutes(faults, notifier, tokens),
    recordsRoute(() => control.records()),
    statementRoutes({ lines: () => mpStatementLines(payments.all()), plants }),
  );
  app.use((_req, res) => {
    res.status(404).json({
      fault: {
        code: 404,
        message: 'No matching resource found for given API Request',
        description: 'The requested resource is not available.',
      },
    });
  });

  const control: OrangeMpMockControl = {
    fault: (op, f, times) => faults.add(op, f, times),
    notificationFault: (f, times) => notifier.fault(f, times),
    notifyBeforePayAnswer: (times = 1) => {
      earlyNotifications += times;
    },
    setStatusLag: (ms) => {
      payments.statusLagMs = ms;
    },
    expireTokens: () => tokens.expireAll(),
    tokensIssued: () => tokens.issued,
    payment: (payToken) => payments.get(payToken),
    paysFor: (orderId) => payments.paysFor(orderId),
    records: () => mpRecords(payments.all()),
    notifications: notifier.sent,
    notify: (url, body) => notifier.notify(url, body, 0),
  };
  return { app, control, close: () => timers.clear() };
}

/** Pays taken per orderId (a pay token only gets one when paid with); the money is taken once SUCCESSFULL. */
export function mpRecords(all: readonly MpPayment[]): MockRecords {
  const payments = [...groupBy(all, (p) => p.orderId)].map(([reference, group]) => ({
    reference,
    created: group.length,
    state: (group.find((p) => p.status === 'SUCCESSFULL') ?? group.at(-1)!).status,
    taken: group.some((p) => p.status === 'SUCCESSFULL'),
    decided: group.every((p) => p.status !== 'INITIATED' && p.status !== 'PENDING'),
    refundsPaid: 0,
  }));
  return { payments, refunds: [], payouts: [] };
}

function payRequestOf(req: Request): (PayRequest & { pin: string }) | null {
  const b = req.body as Record<string, unknown> | undefined;
  const fields = [
    'subscriberMsisdn',
    'channelUserMsisdn',
    'pin',
    'amount',
    'orderId',
    'description',
    'notifUrl',
    'payToken',
  ] as const;
  if (!b || fields.some((f) => typeof b[f] !== 'string' || b[f] === '')) return null;
  if (!/^6\d{8}$/.test(b.subscriberMsisdn as string) || !/^\d+$/.test(b.amount as string)) return null;
  return b as unknown as PayRequest & { pin: string };
}

export async function startOrangeMpMock(
  options: OrangeMpMockOptions & { port: number; host?: string },
): Promise<Listening & { control: OrangeMpMockControl }> {
  const mock = createOrangeMpMock(options);
  const server = await listen(mock.app, options.port, options.host, mock.close);
  return { ...server, control: mock.control };
}
