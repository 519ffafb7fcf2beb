import express, { Router, type Request, type Response } from 'express';
import type { Counter, Logger } from '@mm/observability';
import type { AccountKey, CallbackHint, OperatorAdapter, OperatorAdapters, VerifiedCallback } from '@mm/operators';
import {
  operatorResultJobOf,
  type OperatorResultJob,
  type OperatorResultReceipt,
  type QueueProducer,
} from '@mm/queues';

export interface CallbackReplays {
  /** True when a delivery with this replay key was taken within the signature's tolerance. */
  taken(replayKey: string): Promise<boolean>;
  /**
   * Remembers a delivery once it is applied or queued, never before: a bridge that dies while taking
   * it has remembered nothing, so the operator's retry is taken. Two copies arriving together may
   * both be taken; the state machine makes the second one change nothing.
   */
  remember(replayKey: string): Promise<void>;
}

export interface OperatorCallbackDeps {
  /** The simulator's adapter (the services' OPERATOR_* settings): /operator/callbacks/simulator. */
  simulator: OperatorAdapter;
  /** The operator accounts' adapters: /operator/callbacks/{operator}/{country}[/{reference}]. */
  adapters: OperatorAdapters;
  /** The account a payment went through, by its provider reference; null when there is no such payment. */
  paymentAccount(providerReference: string): Promise<AccountKey | null>;
  results: QueueProducer<OperatorResultJob>;
  /**
   * Applies a signed result in the request, within its bound (InlineApplies); false, or a failure: it
   * is queued. Absent: every result is queued.
   */
  applyNow?(result: OperatorResultReceipt): Promise<boolean>;
  replays: CallbackReplays;
  /** Callbacks by outcome: applied, queued, replayed, invalid. */
  callbacks: Counter<'outcome'>;
  now(): number;
  logger: Logger;
}

const raw = express.raw({ type: () => true, limit: '16kb' });

/** The account whose route (and secret) took a callback; no country: the global simulator route, for no known payment. */
interface CallbackAccount {
  /** What its replay keys are kept under (the route's own spelling: `ci:mtn`). */
  key: string;
  operator: string;
  country?: string;
}

const accountOf = (a: AccountKey): CallbackAccount => ({
  key: `${a.countryCode.toLowerCase()}:${a.operator.toLowerCase()}`,
  operator: a.operator,
  country: a.countryCode,
});

function receiptOf(result: VerifiedCallback | CallbackHint, account: CallbackAccount): OperatorResultReceipt {
  const { operator } = account;
  const country = account.country ? { country: account.country } : {};
  if ('hint' in result) {
    return {
      providerReference: result.partnerReference,
      providerState: 'PENDING',
      providerTxnStatus: null,
      providerTxId: null,
      providerSessionId: null,
      failureReason: null,
      source: 'hint',
      operator,
      ...country,
    };
  }
  return {
    providerReference: result.partnerReference,
    providerState: result.providerState,
    providerTxnStatus: result.providerTxnStatus,
    providerTxId: result.providerTxId,
    providerSessionId: result.providerSessionId,
    failureReason: result.failureReason,
    source: 'callback',
    operator,
    ...country,
    ...(result.reported ? { reported: result.reported } : {}),
  };
}

/**
 * The operators' result callbacks: verify, apply or queue, answer. A signed callback whose signature
 * holds and that needs nothing but the database is applied in the request, in one database transaction
 * (its commit is as durable as a queued job, and it saves a queue hop per payment), within a bound
 * (InlineApplies: how many at once, how long each); when that fails or runs late (the database
 * unreachable, a lock held too long) it is queued instead. An unsigned one (MTN, Orange)
 * and a result that needs the operator's status are queued for the worker, whose retries a slow
 * operator needs. A 5xx (neither applied nor queued) makes the operator retry, nothing is lost. The
 * same delivery is taken once: sent again (captured and replayed, or retried by the operator although
 * we had taken it), it is acknowledged and dropped. A delivery is remembered only once it is taken, so
 * the operator's retry of one that could not be taken (or whose bridge died) is taken.
 */
export function operatorCallbackRouter(deps: OperatorCallbackDeps): Router {
  const router = Router();
  const bodyOf = (req: Request) => (Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0));
  const invalid = (res: Response) => {
    deps.callbacks.inc({ outcome: 'invalid' });
    res
      .status(401)
      .json({ error: { code: 'INVALID_SIGNATURE', message: 'callback signature or timestamp is not valid' } });
  };
  const take = async (res: Response, result: VerifiedCallback | CallbackHint | null, account: CallbackAccount) => {
    if (!result) {
      invalid(res);
      return;
    }
    const replayKey = `${account.key}:${result.replayKey}`;
    if (await deps.replays.taken(replayKey)) {
      deps.callbacks.inc({ outcome: 'replayed' });
      res.status(200).json({ received: true, duplicate: true });
      return;
    }
    const receipt = receiptOf(result, account);
    const applied =
      !('hint' in result) &&
      deps.applyNow !== undefined &&
      (await deps.applyNow(receipt).catch((err: unknown) => {
        deps.logger.warn(
          { err, providerReference: receipt.providerReference },
          'operator result not applied in the callback; queued for the worker',
        );
        return false;
      }));
    // Not remembered if this throws: the 5xx makes the operator send it again, and that is taken.
    if (!applied) await deps.results.add(operatorResultJobOf(receipt));
    await deps.replays
      .remember(replayKey)
      .catch((err: unknown) => deps.logger.warn({ err }, 'callback replay key not recorded'));
    deps.callbacks.inc({ outcome: applied ? 'applied' : 'queued' });
    res.status(200).json({ received: true });
  };
  const adapterOf = (account: AccountKey) =>
    deps.adapters.adapterFor(account).catch((err: unknown) => {
      deps.logger.warn(
        { err, operator: account.operator, country: account.countryCode },
        'callback for an operator account that cannot be used',
      );
      return null;
    });

  /**
   * The simulator's callbacks before each payment was given its account's route (callbackUrlFor): payments in
   * flight then, and anyone posting here. Verified with the settings' secret, then held to the payment's own
   * account: its adapter must verify the same bytes too, so the settings' secret moves only the payments of an
   * account that uses it (no secret of its own), never one of an account with its own secret. A payment this
   * bridge does not know is taken as before (and ignored by the worker).
   */
  router.post('/operator/callbacks/simulator', raw, async (req, res) => {
    const body = bodyOf(req);
    const result = deps.simulator.parseCallback(body, req.headers, deps.now(), '');
    const account = result && !('hint' in result) ? await deps.paymentAccount(result.partnerReference) : null;
    if (!result || !account) {
      await take(res, result, { key: 'simulator', operator: 'SIMULATOR' });
      return;
    }
    const own = (await adapterOf(account))?.parseCallback(body, req.headers, deps.now(), '') ?? null;
    if (!own || 'hint' in own || own.partnerReference !== result.partnerReference) {
      deps.logger.warn(
        { providerReference: result.partnerReference, operator: account.operator, country: account.countryCode },
        "simulator callback not signed with the secret of its payment's account: refused",
      );
      invalid(res);
      return;
    }
    await take(res, own, accountOf(account));
  });

  // MTN says to allow PUT as well as POST for its callbacks.
  router.all('/operator/callbacks/:operator/:country{/*rest}', raw, async (req, res) => {
    if (req.method !== 'POST' && req.method !== 'PUT') {
      res
        .status(405)
        .setHeader('Allow', 'POST, PUT')
        .json({ error: { code: 'METHOD_NOT_ALLOWED', message: 'callbacks are POST or PUT' } });
      return;
    }
    const { operator, country } = req.params as { operator: string; country: string };
    const rest = (req.params as { rest?: string[] }).rest ?? [];
    // Our references are 22 characters: anything longer names no payment (and would not fit the queue's job).
    const adapter =
      /^[a-z][a-z0-9_]{1,31}$/.test(operator) && /^[a-z]{2}$/.test(country) && rest.join('/').length <= 100
        ? await adapterOf({ countryCode: country.toUpperCase(), operator: operator.toUpperCase() })
        : null;
    if (!adapter) {
      res.status(404).json({ error: { code: 'NOT_FOUND', message: 'no such operator account' } });
      return;
    }
    const result = adapter.parseCallback(bodyOf(req), req.headers, deps.now(), rest.join('/'));
    await take(res, result, {
      key: `${country}:${operator}`,
      operator: operator.toUpperCase(),
      country: country.toUpperCase(),
    });
  });
  return router;
}
