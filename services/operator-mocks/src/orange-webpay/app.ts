/**
 * Contract mock of Orange Money WebPay (api.orange.com), as Orange's "OM WebPay Dev – Getting started", docs.sandpay.dev,
 * docs.4pay.online and integrators' clients show it:
 * - POST /oauth/v3/token, Basic client_id:client_secret, form grant_type=client_credentials -> {token_type,
 *   access_token, expires_in: "7776000"} (a string; `tokenLifetimeMs`), really expiring; gateway 401 bodies
 *   {code: 41 Invalid credentials | 42 Expired credentials, message, description} (Orange's API gateway wording).
 * - POST /orange-money-webpay/{dev|cc}/v1/webpayment, Bearer, {merchant_key, currency ("OUV" in dev), order_id,
 *   amount (integer), return_url, cancel_url, notif_url, lang, reference} -> 201 {status: 201, message, pay_token,
 *   payment_url, notif_token}. A reused order_id is refused (integrators report duplicates refused; the exact
 *   body is the mock's choice: 400 {code, message, description: "order_id ... already exists"}).
 * - payment_url: a page of this mock (payment-page.ts) where the customer types a number and pays or cancels,
 *   then is sent to return_url / cancel_url; SUCCESS and FAILED are POSTed unsigned to notif_url {status,
 *   notif_token, txnid}. The mock's /_mock/webpayments/{pay_token}/pay|cancel do the same without a browser.
 * - POST .../transactionstatus {order_id, amount, pay_token} -> {status, order_id, txnid}: INITIATED, PENDING,
 *   SUCCESS, FAILED, EXPIRED (confirmed too late: `sessionLifetimeMs`, ~10 min). FAILED also carries `message`
 *   ("60019 :: ...", the mp API's wording): an extension, the documented body names no cause. An unknown
 *   order is 404 {code, message, description} (the mock's choice).
 * - No sandbox numbers are public (test accounts are mailed per merchant): outcomes follow the project's scripted
 *   last two digits of the number typed on the page (outcomes.ts).
 */
import express, { type Express, type RequestHandler } from 'express';
import { Plants, type RecordJournal, statementRoutes, TimerSet } from '@mm/fake-operator';
import { OrangeFaults, type OrangeFault } from '../orange-shared/faults.js';
import { listen, type Listening } from '../orange-shared/listen.js';
import { mockControlRoutes } from '../orange-shared/mock-routes.js';
import { Notifier, type NotificationFault } from '../orange-shared/notifier.js';
import { TokenIssuer } from '../orange-shared/tokens.js';
import { recordsRoute, type MockRecords } from '../records.js';
import { PAGE_CSP, paymentPage } from './payment-page.js';
import { WebPayments, type WebPayment } from './payments.js';
import { statusAnswer, webpayStatementLines } from './statement.js';

export interface OrangeWebpayMockOptions {
  clientId: string;
  clientSecret: string;
  merchantKey: string;
  tokenLifetimeMs?: number;
  sessionLifetimeMs?: number;
  outcomeDelayMs?: number;
  lateConfirmDelayMs?: number;
  notifyDelayMs?: number;
  hangMs?: number; /** Where its payments are kept (in memory by default; opened and closed by the caller). */
  records?: RecordJournal;
}

export type WebpayOperation = 'token' | 'init' | 'status';

export interface OrangeWebpayMockControl {
  fault(operation: WebpayOperation, fault: OrangeFault, times?: number): void;
  notificationFault(fault: NotificationFault, times?: number): void;
  setStatusLag(ms: number): void;
  expireTokens(): void;
  tokensIssued(): number;
  payment(payToken: string): WebPayment | undefined;
  paymentsFor(orderId: string): number;
  /** Orange's record of every web payment by order_id (our reference); WebPay has no refund or payout API. */
  records(): MockRecords;
  /** What the customer does on the payment page. */
  pay(payToken: string, msisdn: string): void;
  notifications: Notifier['sent'];
  notify(url: string, body: Record<string, unknown>): void;
}

const ERR = {
  invalid: {
    code: 41,
    message: 'Invalid credentials',
    description: 'The requested service needs credentials, but the ones provided were invalid.',
  },
  expired: {
    code: 42,
    message: 'Expired credentials',
    description: 'The requested service needs credentials, and the ones provided were out-of-date.',
  },
};
const bad = (description: string) => ({ code: 400, message: 'Bad Request', description });
const COUNTRIES = new Set([
  'dev',
  'ci',
  'sn',
  'cm',
  'ml',
  'bf',
  'gn',
  'mg',
  'cd',
  'bw',
  'sl',
  'lr',
  'gw',
  'ne',
  'cf',
  'jo',
  'tn',
  'ma',
]);
const ROOT = '/orange-money-webpay/:cc/v1';

export function createOrangeWebpayMock(options: OrangeWebpayMockOptions): {
  app: Express;
  control: OrangeWebpayMockControl;
  close(): void;
} {
  const timers = new TimerSet();
  const faults = new OrangeFaults();
  const notifier = new Notifier({ timers, delayMs: options.notifyDelayMs ?? 20 });
  const tokens = new TokenIssuer({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    lifetimeMs: options.tokenLifetimeMs ?? 7_776_000_000,
    expiresInAsString: true,
  });
  const payments = new WebPayments({
    timers,
    notifier,
    sessionLifetimeMs: options.sessionLifetimeMs ?? 600_000,
    outcomeDelayMs: options.outcomeDelayMs ?? 3_000,
    lateConfirmDelayMs: options.lateConfirmDelayMs ?? 60_000,
    journal: options.records,
  });
  const fault = (op: WebpayOperation) => faults.middleware(op, timers, options.hangMs ?? 30_000);
  const plants = new Plants();

  const auth: RequestHandler = (req, res, next) => {
    const state = tokens.check(req.headers.authorization);
    if (state === 'ok') return next();
    res.status(401).json(state === 'expired' ? ERR.expired : ERR.invalid);
  };
  const country: RequestHandler = (req, res, next) => {
    if (COUNTRIES.has(String(req.params.cc))) return next();
    res.status(404).json({
      code: 60,
      message: 'Resource not found',
      description: 'The requested URI or the requested resource does not exist.',
    });
  };

  const app = express();
  app.disable('x-powered-by');
  app.post(
    '/oauth/v3/token',
    fault('token'),
    express.urlencoded({ extended: false, limit: '4kb' }),
    tokens.handler((status) => ({
      status,
      body:
        status === 401
          ? { error: 'invalid_client', error_description: ERR.invalid.description }
          : { error: 'unsupported_grant_type', error_description: 'grant_type must be client_credentials' },
    })),
  );
  app.use('/orange-money-webpay', express.json({ limit: '16kb' }));
  app.post(`${ROOT}/webpayment`, fault('init'), auth, country, (req, res) => {
    const b = req.body as Record<string, unknown>;
    const cc = String(req.params.cc);
    const strings = [
      'merchant_key',
      'currency',
      'order_id',
      'return_url',
      'cancel_url',
      'notif_url',
      'lang',
      'reference',
    ] as const;
    const missing = strings.find((f) => typeof b[f] !== 'string' || b[f] === '');
    if (missing) return void res.status(400).json(bad(`Missing or invalid body field: ${missing}`));
    if (!Number.isInteger(b.amount) || (b.amount as number) <= 0)
      return void res.status(400).json(bad('amount must be a positive integer'));
    if (b.merchant_key !== options.merchantKey) return void res.status(400).json(bad('Invalid merchant_key'));
    if (cc === 'dev' && b.currency !== 'OUV')
      return void res.status(400).json(bad('currency must be OUV in the dev environment'));
    const p = payments.init({
      country: cc,
      orderId: b.order_id as string,
      amount: b.amount as number,
      currency: b.currency as string,
      reference: b.reference as string,
      returnUrl: b.return_url as string,
      cancelUrl: b.cancel_url as string,
      notifUrl: b.notif_url as string,
    });
    if (!p) return void res.status(400).json(bad(`order_id ${String(b.order_id)} already exists`));
    const base = `${req.protocol}://${req.get('host') ?? 'localhost'}`;
    res.status(201).json({
      status: 201,
      message: 'OK',
      pay_token: p.payToken,
      payment_url: `${base}/mpayment-otp/${p.payToken}`,
      notif_token: p.notifToken,
    });
  });
  app.post(`${ROOT}/transactionstatus`, fault('status'), auth, country, (req, res) => {
    const b = req.body as Record<string, unknown>;
    const p = typeof b.pay_token === 'string' ? payments.get(b.pay_token) : undefined;
    // Planted differences (statement.ts) are Orange's word too; the order is found on what really happened.
    const answer =
      p && p.orderId === b.order_id && p.amount === Number(b.amount) && p.country === req.params.cc
        ? statusAnswer(p, plants.on({ reference: p.orderId, operatorTxId: p.status === 'SUCCESS' ? p.txnid : null }))
        : null;
    if (!answer)
      return void res.status(404).json({
        code: 404,
        message: 'Not Found',
        description: 'No transaction for this order_id, amount and pay_token',
      });
    res.json(answer);
  });

  const page = express.Router();
  page.use(express.urlencoded({ extended: false, limit: '4kb' }));
  page.get('/:payToken', (req, res) => {
    const p = payments.get(req.params.payToken);
    res.set('Content-Security-Policy', PAGE_CSP);
    if (!p) return void res.status(404).type('text/plain').send('Paiement introuvable');
    res.type('html').send(paymentPage(p));
  });
  page.post('/:payToken/:action', (req, res) => {
    const p = payments.get(req.params.payToken);
    if (!p || (req.params.action !== 'pay' && req.params.action !== 'cancel'))
      return void res.status(404).type('text/plain').send('Paiement introuvable');
    const msisdn = String((req.body as { msisdn?: unknown } | undefined)?.msisdn ?? '');
    if (req.params.action === 'pay') payments.pay(p, msisdn);
    res.redirect(303, req.params.action === 'pay' ? p.returnUrl : p.cancelUrl);
  });
  app.use('/mpayment-otp', page);

  app.use(
    '/_mock',
    express.json({ limit: '16kb' }),
    mockControlRoutes(faults, notifier, tokens),
    recordsRoute(() => control.records()),
    statementRoutes({ lines: () => webpayStatementLines(payments.all()), plants }),
  );
  app.post('/_mock/webpayments/:payToken/:action', (req, res) => {
    const p = payments.get(req.params.payToken);
    if (!p) return void res.status(404).json({ error: 'unknown pay_token' });
    if (req.params.action === 'pay') payments.pay(p, String((req.body as { msisdn?: unknown }).msisdn ?? ''));
    res.json({ status: p.status, redirect: req.params.action === 'pay' ? p.returnUrl : p.cancelUrl });
  });
  app.use((_req, res) => {
    res.status(404).json({
      code: 60,
      message: 'Resource not found',
      description: 'The requested URI or the requested resource does not exist.',
    });
  });

  const control: OrangeWebpayMockControl = {
    fault: (op, f, times) => faults.add(op, f, times),
    notificationFault: (f, times) => notifier.fault(f, times),
    setStatusLag: (ms) => {
      payments.statusLagMs = ms;
    },
    expireTokens: () => tokens.expireAll(),
    tokensIssued: () => tokens.issued,
    payment: (payToken) => payments.get(payToken),
    paymentsFor: (orderId) => payments.countFor(orderId),
    records: () => ({
      payments: payments.all().map((p) => ({
        reference: p.orderId,
        created: 1,
        state: p.status,
        taken: p.status === 'SUCCESS',
        decided: p.status !== 'INITIATED' && p.status !== 'PENDING',
        refundsPaid: 0,
      })),
      refunds: [],
      payouts: [],
    }),
    pay: (payToken, msisdn) => {
      const p = payments.get(payToken);
      if (p) payments.pay(p, msisdn);
    },
    notifications: notifier.sent,
    notify: (url, body) => notifier.notify(url, body, 0),
  };
  return { app, control, close: () => timers.clear() };
}

export async function startOrangeWebpayMock(
  options: OrangeWebpayMockOptions & { port: number; host?: string },
): Promise<Listening & { control: OrangeWebpayMockControl }> {
  const mock = createOrangeWebpayMock(options);
  const server = await listen(mock.app, options.port, options.host, mock.close);
  return { ...server, control: mock.control };
}
