import express, { type Request } from 'express';
import Joi from 'joi';
import type { Plants, TimerSet } from '@mm/fake-operator';
import { header, mtnError, sendAnswer, type Answer } from './answer.js';
import { accountBalance } from './balance.js';
import { UUID_V4, type MtnAuth } from './auth.js';
import { faulted, type MtnFaults } from './faults.js';
import { requestToPayOutcome, transferOutcome, type MtnOutcome } from './outcomes.js';
import type { MtnApiUserSeed, MtnMockProduct, ResolvedMtnOptions } from './options.js';
import { plantedRecord } from './statement.js';
import type { MtnKind, MtnStore } from './store.js';

export interface MtnRouteContext {
  o: ResolvedMtnOptions;
  auth: MtnAuth;
  store: MtnStore;
  faults: MtnFaults;
  timers: TimerSet;
  /** Outcomes forced by tests, by party number: requests to pay, and refunds/transfers. */
  script: { requestToPay: Map<string, MtnOutcome>; payout: Map<string, MtnOutcome> };
  /** Delay of the 202 (a callback can then arrive before the push's answer). */
  hold: { acceptMs: number };
  /** Differences planted in MTN's books: its status queries tell them too. */
  plants: Plants;
}

// M3: notes of at most 160 characters, no "unsupported special characters, for example an apostrophe".
const note = () =>
  Joi.string()
    .max(160)
    .pattern(/^[^'"<>]*$/)
    .allow('');
const party = () =>
  Joi.object({
    partyIdType: Joi.string().valid('MSISDN', 'EMAIL', 'PARTY_CODE').required(),
    partyId: Joi.string().min(1).required(),
  });
const money = {
  amount: Joi.string()
    .pattern(/^\d+(\.\d+)?$/)
    .required(),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .required(),
  externalId: Joi.string().allow(''),
  payerMessage: note(),
  payeeNote: note(),
};
const SCHEMAS: Record<MtnKind, Joi.ObjectSchema> = {
  requesttopay: Joi.object({ ...money, payer: party().required() }),
  transfer: Joi.object({ ...money, payee: party().required() }),
  refund: Joi.object({ ...money, referenceIdToRefund: Joi.string().pattern(UUID_V4).required() }),
};
const PRODUCT: Record<MtnKind, MtnMockProduct> = {
  requesttopay: 'collection',
  refund: 'disbursement',
  transfer: 'disbursement',
};

/** What every product call checks first: subscription key and token (401), then X-Target-Environment. */
function preflight(c: MtnRouteContext, req: Request, product: MtnMockProduct): { user: MtnApiUserSeed } | Answer {
  const auth = c.auth.authenticate(req, product);
  if (!('user' in auth)) return auth;
  const environment = header(req, 'x-target-environment');
  if (!environment) return mtnError(400, 'INVALID_REQUEST', 'X-Target-Environment is required');
  if (environment !== c.o.targetEnvironment)
    return mtnError(500, 'NOT_ALLOWED_TARGET_ENVIRONMENT', 'Access to target environment is forbidden.');
  return auth;
}

/** M3: the callback host must be the API user's providerCallbackHost; a 500, not a 4xx. */
function callbackHostRefusal(c: MtnRouteContext, url: string | undefined, user: MtnApiUserSeed): Answer | null {
  if (url === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return mtnError(400, 'INVALID_REQUEST', 'X-Callback-Url is not a URL');
  }
  if ([parsed.hostname, parsed.host].includes(user.providerCallbackHost)) return null;
  return mtnError(
    500,
    'INVALID_CALLBACK_URL_HOST',
    'Callback URL with different host name then configured for API User',
  );
}

/** MTN's sandbox takes EUR only, as a 500 INVALID_CURRENCY (M3; newer MTN pages list it as a 400). */
function currencyRefusal(c: MtnRouteContext, currency: string): Answer | null {
  const accepted = c.o.targetEnvironment === 'sandbox' ? currency === 'EUR' : c.o.currencies.includes(currency);
  return accepted ? null : mtnError(500, 'INVALID_CURRENCY', 'Currency not supported on the requested account');
}

function outcomeOf(
  c: MtnRouteContext,
  kind: MtnKind,
  body: Record<string, unknown>,
): { outcome: MtnOutcome; payee?: unknown } {
  const partyIdOf = (p: unknown) => (p as { partyId: string }).partyId;
  if (kind === 'requesttopay')
    return {
      outcome: c.script.requestToPay.get(partyIdOf(body.payer)) ?? requestToPayOutcome(partyIdOf(body.payer), c.o),
    };
  if (kind === 'transfer')
    return {
      outcome: c.script.payout.get(partyIdOf(body.payee)) ?? transferOutcome(partyIdOf(body.payee), c.o),
      payee: body.payee,
    };
  const original = c.store.get('requesttopay', body.referenceIdToRefund as string);
  // Undocumented by MTN: a refund of a request to pay that did not succeed (or of more than it) fails, later, as NOT_ALLOWED.
  if (!original || original.status !== 'SUCCESSFUL' || Number(body.amount) > Number(original.body.amount)) {
    return {
      outcome: { final: { status: 'FAILED', reason: 'NOT_ALLOWED', afterMs: c.o.disbursementDelayMs } },
      payee: original?.body.payer,
    };
  }
  const payer = original.body.payer;
  return { outcome: c.script.payout.get(partyIdOf(payer)) ?? transferOutcome(partyIdOf(payer), c.o), payee: payer };
}

function create(c: MtnRouteContext, kind: MtnKind) {
  return async (req: Request): Promise<Answer> => {
    const auth = preflight(c, req, PRODUCT[kind]);
    if (!('user' in auth)) return auth;
    const referenceId = header(req, 'x-reference-id') ?? '';
    if (!UUID_V4.test(referenceId)) return mtnError(400, 'INVALID_REQUEST', 'X-Reference-Id must be a UUID v4');
    const { value, error } = SCHEMAS[kind].validate(req.body, { convert: false });
    if (error) return mtnError(400, 'INVALID_REQUEST', error.message);
    const body = value as Record<string, unknown>;
    if (c.store.existing(referenceId))
      return mtnError(409, 'RESOURCE_ALREADY_EXIST', 'Duplicated reference id. Creation of resource failed.');
    const callbackUrl = header(req, 'x-callback-url');
    const refused = callbackHostRefusal(c, callbackUrl, auth.user) ?? currencyRefusal(c, body.currency as string);
    if (refused) return refused;
    const { outcome, payee } = outcomeOf(c, kind, body);
    if (outcome.refuse) return mtnError(500, outcome.refuse, 'Payer not found. Account holder is not registered.');
    c.store.create(kind, referenceId, kind === 'refund' ? { ...body, payee } : body, outcome, callbackUrl);
    if (c.hold.acceptMs > 0) await new Promise<void>((resolve) => c.timers.after(c.hold.acceptMs, resolve));
    return { status: 202 };
  };
}

function read(c: MtnRouteContext, kind: MtnKind) {
  return (req: Request): Answer => {
    const auth = preflight(c, req, PRODUCT[kind]);
    if (!('user' in auth)) return auth;
    const stored = c.store.get(kind, String(req.params.referenceId));
    const record =
      stored &&
      plantedRecord(
        stored,
        c.plants.on({
          reference: typeof stored.body.externalId === 'string' ? stored.body.externalId : null,
          operatorTxId: stored.financialTransactionId,
        }),
      );
    if (!record) return mtnError(404, 'RESOURCE_NOT_FOUND', 'Requested resource was not found.');
    return { status: 200, body: c.store.statusBody(record) };
  };
}

function balance(c: MtnRouteContext, product: MtnMockProduct) {
  return (req: Request): Answer => {
    const auth = preflight(c, req, product);
    if (!('user' in auth)) return auth;
    return accountBalance(
      c.o,
      c.store,
      c.plants,
      product,
      req.params.currency === undefined ? undefined : String(req.params.currency),
    );
  };
}

/** MTN's paths (M3, M5): token per product, requesttopay, refund and transfer with their status reads, balances, sandbox provisioning. */
export function mtnRoutes(c: MtnRouteContext): express.Router {
  const router = express.Router();
  const plain =
    (handler: (req: Request) => Answer): express.RequestHandler =>
    (req, res) =>
      sendAnswer(res, handler(req));
  router.post(
    '/v1_0/apiuser',
    plain((req) => c.auth.createUser(req)),
  );
  router.post(
    '/v1_0/apiuser/:userId/apikey',
    plain((req) => c.auth.createKey(req, String(req.params.userId))),
  );
  router.get(
    '/v1_0/apiuser/:userId',
    plain((req) => c.auth.describeUser(req, String(req.params.userId))),
  );
  router.post(
    '/collection/token/',
    faulted('token', c.faults, c.timers, (req) => c.auth.issueToken(req, 'collection')),
  );
  router.post(
    '/disbursement/token/',
    faulted('token', c.faults, c.timers, (req) => c.auth.issueToken(req, 'disbursement')),
  );
  router.post('/collection/v1_0/requesttopay', faulted('requesttopay', c.faults, c.timers, create(c, 'requesttopay')));
  router.get(
    '/collection/v1_0/requesttopay/:referenceId',
    faulted('requesttopay-status', c.faults, c.timers, read(c, 'requesttopay')),
  );
  router.post('/disbursement/v1_0/refund', faulted('refund', c.faults, c.timers, create(c, 'refund')));
  router.get('/disbursement/v1_0/refund/:referenceId', faulted('refund-status', c.faults, c.timers, read(c, 'refund')));
  router.post('/disbursement/v1_0/transfer', faulted('transfer', c.faults, c.timers, create(c, 'transfer')));
  router.get(
    '/disbursement/v1_0/transfer/:referenceId',
    faulted('transfer-status', c.faults, c.timers, read(c, 'transfer')),
  );
  for (const product of ['collection', 'disbursement'] as const) {
    router.get(
      [`/${product}/v1_0/account/balance`, `/${product}/v1_0/account/balance/:currency`],
      faulted('balance', c.faults, c.timers, balance(c, product)),
    );
  }
  return router;
}
