/**
 * Contract mock of MTN MoMo's Open API (Collection and Disbursement), built from operators-reference.md section 2 and its
 * sources: M2 sandbox provisioning (POST /v1_0/apiuser, /apikey) and test numbers; M3 common errors ({code,
 * message}; 409 RESOURCE_ALREADY_EXIST; 400 for a non-v4 X-Reference-Id, a note over 160 characters or with an
 * apostrophe; 500 INVALID_CALLBACK_URL_HOST / NOT_ALLOWED_TARGET_ENVIRONMENT / INVALID_CURRENCY; 404
 * RESOURCE_NOT_FOUND); M4/M5 token per product (Basic, Content-Length: 0 or 411, {access_token, token_type,
 * expires_in}), paths and bodies (sparkplug/momoapi-node, MTN-Group/MoMoAPIs_Javascript_sdk); M1/M7 unsigned
 * callbacks (POST of the status body to X-Callback-Url: lost, duplicated, early, ahead of the status), CREATED
 * before PENDING, a bare-string reason; each product's account balance ({availableBalance, currency}, balance.ts).
 * Not from a source (chosen, and said so where used): the 400 body (`INVALID_REQUEST`), the 401 body for a bad
 * token (Azure API Management's default), refunds of an unsuccessful payment failing as NOT_ALLOWED, the payout
 * outcomes by last two digits, the balances' amounts, and the `/_mock` control routes.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Plants, statementRoutes, TimerSet } from '@mm/fake-operator';
import { MtnAuth } from './auth.js';
import { MtnCallbacks, DEFAULT_CALLBACK_PLAN, type CallbackPlan, type SentCallback } from './callbacks.js';
import { MtnFaults, MTN_OPERATIONS, type MtnFault, type MtnOperation } from './faults.js';
import type { MtnOutcome } from './outcomes.js';
import { recordsRoute, type MockRecords } from '../records.js';
import { mtnRecords } from './records.js';
import { resolveOptions, type MtnMockProduct, type MtnMomoMockOptions } from './options.js';
import { mtnRoutes, type MtnRouteContext } from './routes.js';
import { mtnStatementLines } from './statement.js';
import { MtnStore, type MtnRecord } from './store.js';

export interface MtnMomoMockControl {
  /** Callbacks delivered so far (url, raw body, the receiver's status). */
  readonly sentCallbacks: readonly SentCallback[];
  setCallbackPlan(plan: Partial<CallbackPlan>): void;
  /** Sends one callback now, to any URL with any body (an unknown reference, a forged FAILED...). */
  sendCallback(url: string, body: unknown): Promise<SentCallback>;
  fault(operation: MtnOperation, fault: MtnFault, times?: number): void;
  /** Every token issued so far is refused from now on (401), as if it lapsed mid-flight. */
  expireTokens(): void;
  tokenRequests(product: MtnMockProduct): number;
  /** Forces the outcome of requests to pay from (or refunds / transfers to) a party number. */
  setOutcome(kind: 'requesttopay' | 'payout', partyId: string, outcome: MtnOutcome): void;
  /** Delays every 202 by this (0: none), so a callback can arrive before the push's answer. */
  holdAccept(ms: number): void;
  record(referenceId: string): MtnRecord | undefined;
  /** MTN's record of every payment, refund and transfer by our reference (externalId). */
  records(): MockRecords;
  /** Decides a request now (as its customer or MTN would); false if unknown. */
  decide(referenceId: string, status: 'SUCCESSFUL' | 'FAILED', reason?: string): boolean;
  /** Back to defaults: no faults, no forced outcomes, normal callbacks, no hold, no planted differences. */
  reset(): void;
}

export interface MtnMomoMock {
  app: express.Express;
  control: MtnMomoMockControl;
  close(): void;
}

export function createMtnMomoMock(options: MtnMomoMockOptions = {}): MtnMomoMock {
  const o = resolveOptions(options);
  const timers = new TimerSet();
  const callbacks = new MtnCallbacks(timers);
  const c: MtnRouteContext = {
    o,
    timers,
    auth: new MtnAuth(o),
    faults: new MtnFaults(),
    store: new MtnStore(o, timers, callbacks, options.records),
    script: { requestToPay: new Map(), payout: new Map() },
    hold: { acceptMs: 0 },
    plants: new Plants(),
  };
  const control: MtnMomoMockControl = {
    sentCallbacks: callbacks.sent,
    setCallbackPlan: (plan) => {
      callbacks.plan = { ...callbacks.plan, ...plan };
    },
    sendCallback: (url, body) => callbacks.send(url, body),
    fault: (operation, fault, times) => c.faults.add(operation, fault, times),
    expireTokens: () => c.auth.expireTokens(),
    tokenRequests: (product) => c.auth.tokenRequests[product],
    setOutcome: (kind, partyId, outcome) => {
      (kind === 'requesttopay' ? c.script.requestToPay : c.script.payout).set(partyId, outcome);
    },
    holdAccept: (ms) => {
      c.hold.acceptMs = ms;
    },
    record: (referenceId) => c.store.peek(referenceId),
    records: () => mtnRecords(c.store.all()),
    decide: (referenceId, status, reason) => {
      const record = c.store.peek(referenceId);
      if (record) c.store.decide(record, status, reason);
      return record !== undefined;
    },
    reset: () => {
      c.faults.clear();
      c.script.requestToPay.clear();
      c.script.payout.clear();
      c.hold.acceptMs = 0;
      c.plants.clear();
      callbacks.plan = { ...DEFAULT_CALLBACK_PLAN };
    },
  };
  const app = express();
  app.use(express.json());
  app.use(mtnRoutes(c));
  app.use(
    '/_mock',
    controlRoutes(control),
    statementRoutes({ lines: () => mtnStatementLines(c.store.all()), plants: c.plants }),
  );
  return {
    app,
    control,
    close: () => {
      timers.clear();
      callbacks.stop();
    },
  };
}

/** The control API over HTTP, for the demo and for tests driving a mock in another process. */
function controlRoutes(control: MtnMomoMockControl): express.Router {
  const router = express.Router();
  router.post('/faults', (req, res) => {
    const { operation, times, ...fault } = (req.body ?? {}) as { operation?: MtnOperation; times?: number } & MtnFault;
    if (!operation || !MTN_OPERATIONS.includes(operation) || !('status' in fault || 'hangMs' in fault)) {
      res.status(400).json({ error: `operation (${MTN_OPERATIONS.join(', ')}) and status or hangMs are required` });
      return;
    }
    control.fault(operation, fault, times ?? 1);
    res.status(204).end();
  });
  router.post('/expire-tokens', (_req, res) => {
    control.expireTokens();
    res.status(204).end();
  });
  router.post('/callback-plan', (req, res) => {
    control.setCallbackPlan((req.body ?? {}) as Partial<CallbackPlan>);
    res.status(204).end();
  });
  router.post('/reset', (_req, res) => {
    control.reset();
    res.status(204).end();
  });
  router.use(recordsRoute(() => control.records()));
  router.get('/requests/:referenceId', (req, res) => {
    const record = control.record(req.params.referenceId);
    if (record) res.json(record);
    else res.status(404).json({ error: 'unknown X-Reference-Id' });
  });
  return router;
}

export interface RunningMtnMomoMock {
  url: string;
  port: number;
  control: MtnMomoMockControl;
  close(): Promise<void>;
}

/** The mock listening on `port` (0: a free one) of `host` (127.0.0.1 by default). */
export async function startMtnMomoMock(
  options: MtnMomoMockOptions & { port: number; host?: string },
): Promise<RunningMtnMomoMock> {
  const mock = createMtnMomoMock(options);
  const server = createServer(mock.app);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(options.port, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    port,
    control: mock.control,
    close: () =>
      new Promise<void>((resolve) => {
        mock.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
