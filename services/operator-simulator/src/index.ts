import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CallbackSender } from './callback-sender.js';
import { createLogger } from '@mm/observability';
import { DisbursementBook } from './disbursement-book.js';
import { Faults } from './faults.js';
import { IN_MEMORY, type Log, logTo, openRecordJournal, Plants, TimerSet } from '@mm/fake-operator';
import { PushEngine } from './push-engine.js';
import { PushStore } from './push-store.js';
import { RefundBook } from './refund-book.js';
import { ResultCallbacks } from './result-callbacks.js';
import { createSimulatorApp } from './simulator-app.js';

export interface SimulatorOptions {
  /** 0 picks a free port. */
  port: number;
  /** Interface to bind; all interfaces when omitted. */
  host?: string;
  apiToken: string;
  /** SIM_SANDBOX_TOKEN: the sandbox routes and the virtual phone (routes/sandbox-auth.ts). */
  sandboxToken: string;
  callbackSecret: string;
  outcomeDelayMs: number;
  lateConfirmDelayMs: number;
  hangMs: number;
  callbackRetryDelaysMs?: number[];
  /** Items per page of GET /v1/transactions (100). */
  transactionsPageSize?: number;
  /**
   * OPERATOR_RECORDS_DIR: the operator's records (pushes, refunds, disbursements) are kept in `simulator.jsonl`
   * there and restored at start, as a real operator's books survive its restarts. Absent: in memory only.
   */
  recordsDir?: string | null;
  log?: Log;
}

export interface RunningSimulator {
  url: string;
  port: number;
  close(): Promise<void>;
  /** How many times a push was really sent to the phone for this reference (0 when never, 1 when deduped right). */
  pushCount(partnerReference: string): number;
  /** How many push requests for this reference reached the operator, replays included (faulted ones never do). */
  pushRequestCount(partnerReference: string): number;
  /** How many times a refund reference was really decided (0 when never, 1 when deduped right). */
  refundCount(partnerReference: string): number;
  /** How many times a disbursement reference was really decided (0 when never, 1 when deduped right). */
  disbursementCount(partnerReference: string): number;
}

export const DEFAULT_CALLBACK_RETRY_DELAYS_MS = [200, 1000, 5000, 15000];

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const log = options.log ?? logTo(createLogger('operator-simulator'));
  const timers = new TimerSet();
  const journal = options.recordsDir
    ? openRecordJournal(path.join(options.recordsDir, 'simulator.jsonl'), (event, fields) => log(event, fields, 'warn'))
    : IN_MEMORY;
  const store = new PushStore(journal);
  // One instance for the /v1 middleware, the sandbox routes and the result callbacks.
  const faults = new Faults();
  const sender = new CallbackSender({
    secret: options.callbackSecret,
    retryDelaysMs: options.callbackRetryDelaysMs ?? DEFAULT_CALLBACK_RETRY_DELAYS_MS,
    timers,
    log,
  });
  const engine = new PushEngine({
    store,
    timers,
    sender,
    results: new ResultCallbacks({ sender, faults, timers, log }),
    outcomeDelayMs: options.outcomeDelayMs,
    lateConfirmDelayMs: options.lateConfirmDelayMs,
    log,
  });
  const refunds = new RefundBook({ store, log, journal });
  const disbursements = new DisbursementBook({ log, journal });
  const app = createSimulatorApp({
    apiToken: options.apiToken,
    sandboxToken: options.sandboxToken,
    engine,
    store,
    refunds,
    disbursements,
    timers,
    hangMs: options.hangMs,
    faults,
    log,
    plants: new Plants(),
    transactionsPageSize: options.transactionsPageSize ?? 100,
  });
  const server = createServer(app);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host && options.host !== '0.0.0.0' && options.host !== '::' ? options.host : '127.0.0.1';

  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= new Promise<void>((resolve, reject) => {
      timers.clear();
      sender.stop();
      server.close((err) => {
        journal.close();
        if (err) reject(err);
        else resolve();
      });
      // Hanging (08) requests and keep-alive sockets would otherwise hold close() open.
      server.closeAllConnections();
    });
    return closing;
  };

  return {
    url: `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`,
    port,
    close,
    pushCount: (reference) => store.pushCount(reference),
    pushRequestCount: (reference) => store.requestCount(reference),
    refundCount: (reference) => refunds.refundCount(reference),
    disbursementCount: (reference) => disbursements.disbursementCount(reference),
  };
}
