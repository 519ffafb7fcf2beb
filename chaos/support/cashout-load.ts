import { randomBytes } from 'node:crypto';
import { approveCashout, rejectCashout } from '@mm/db/payments';
import { createStaffUser, recordAudit } from '@mm/db/staff';
import { DomainError } from '@mm/domain';
import type { ChaosSystem } from './chaos-system.js';
import { merchantSender, type Api } from './load.js';

export interface CashoutLoadOptions {
  /** merchant_order_id prefix, unique per scenario (orders are shared with cash-ins). */
  prefix: string;
  count: number;
  concurrency: number;
  /** The i-th cash-out's amount: at or above the gateway's CASHOUT_APPROVAL_THRESHOLD it waits for an approver. */
  amount: (i: number) => number;
  /** Last two digits of the beneficiary numbers, in turn: the simulator refuses payouts to 11 and 12, pays any other. */
  suffixes: string[];
  /** How long one request may be retried while the gateway cannot answer. */
  retryForMs?: number;
  /** Told of each cash-out that waits for an approver, as soon as it is accepted (the test's approver acts on it). */
  onAwaiting?: (c: AcceptedCashout) => void;
}

export interface AcceptedCashout {
  id: string;
  order: string;
  amount: number;
  providerReference: string;
  /** Its status in the first answer that accepted it: AWAITING_APPROVAL, or on its way to the operator. */
  accepted: string;
  /** The request as sent: the merchant sends exactly this again when unsure of the answer. */
  body: Record<string, unknown>;
}

export interface CashoutLoadReport {
  cashouts: AcceptedCashout[];
  /** Every HTTP status the gateway answered, with how often; 'network' for no answer at all. */
  statuses: Record<string, number>;
}

const CASHOUT = '/api/v1/payments/cashout';
export const beneficiary = (suffix: string) => `+22507071000${suffix}`;

/**
 * A merchant paying out: cash-outs sent as an integration sends them, each retried on no answer or a
 * 5xx with the same merchant_order_id and body, signed anew, until the gateway accepts it (202, or 200
 * when an earlier try had already been recorded). Nothing is created twice by the retries themselves.
 */
export async function runCashouts(api: Api, o: CashoutLoadOptions): Promise<CashoutLoadReport> {
  const report: CashoutLoadReport = { cashouts: [], statuses: {} };
  const send = merchantSender(api, report.statuses, o.retryForMs);

  async function one(i: number): Promise<void> {
    const order = `${o.prefix}-${i}`;
    const body = {
      merchant_order_id: order,
      amount: o.amount(i),
      beneficiary_msisdn: beneficiary(o.suffixes[i % o.suffixes.length]!),
      reason: `chaos ${order}`,
    };
    const res = await send('POST', CASHOUT, body);
    if (res.status !== 202 && res.status !== 200) throw new Error(`cash-out ${order}: ${res.status} ${res.text}`);
    const data = res.body.data as { transaction_id: string; status: string; provider_reference: string };
    const accepted: AcceptedCashout = {
      id: data.transaction_id,
      order,
      amount: body.amount,
      providerReference: data.provider_reference,
      accepted: data.status,
      body,
    };
    report.cashouts.push(accepted);
    if (data.status === 'AWAITING_APPROVAL') o.onAwaiting?.(accepted);
  }

  let next = 0;
  await Promise.all(
    Array.from({ length: o.concurrency }, async () => {
      while (next < o.count) await one(next++);
    }),
  );
  return report;
}

/**
 * Each cash-out sent again exactly as first sent (a merchant that lost the answer, or restarted):
 * every one must answer 200 with the same transaction. Returns what did not.
 */
export async function resendCashouts(
  api: Api,
  cashouts: AcceptedCashout[],
  statuses: Record<string, number> = {},
): Promise<string[]> {
  const send = merchantSender(api, statuses);
  const found: string[] = [];
  for (const c of cashouts) {
    const res = await send('POST', CASHOUT, c.body);
    const id = (res.body?.data as { transaction_id?: string } | undefined)?.transaction_id;
    if (res.status !== 200 || id !== c.id)
      found.push(`resend: ${c.order} answered ${res.status} ${id ?? res.text} instead of 200 ${c.id}`);
  }
  return found;
}

export type Decision = 'decided' | 'already_decided';

/**
 * The back-office approver without a browser: the database half of the back-office's decideCashout
 * (packages/collections/src/cashouts/decide-cashout.ts), the move and its audit row in one
 * transaction, by a real staff member. Its after-commit publish is left out: the operator request is
 * an outbox row, which the bridge's relay publishes, so that path is the one under fault.
 */
export class Approver {
  /** What the test decided, by transaction id: the invariants hold the rows against it. */
  readonly approved = new Set<string>();
  readonly rejected = new Set<string>();

  private constructor(
    private readonly sys: ChaosSystem,
    private readonly staff: { id: string; email: string },
  ) {}

  static async create(sys: ChaosSystem): Promise<Approver> {
    const email = `approver-${randomBytes(4).toString('hex')}@chaos.test`;
    const staff = await createStaffUser(sys.db, {
      email,
      name: 'Chaos approver',
      role: 'approver',
      password: randomBytes(12).toString('hex'),
    });
    return new Approver(sys, staff);
  }

  approve(transactionId: string): Promise<Decision> {
    return this.decide(transactionId, null);
  }

  reject(transactionId: string, reason: string): Promise<Decision> {
    return this.decide(transactionId, reason);
  }

  private async decide(transactionId: string, rejection: string | null): Promise<Decision> {
    try {
      await this.sys.db.$transaction(async (tx) => {
        const d = { transactionId, decidedBy: this.staff.email };
        const outcome =
          rejection === null ? await approveCashout(tx, d) : await rejectCashout(tx, { ...d, reason: rejection });
        await recordAudit(tx, {
          staffId: this.staff.id,
          actor: this.staff.email,
          action: rejection === null ? 'cashout.approve' : 'cashout.reject',
          targetType: 'transaction',
          targetId: transactionId,
          before: {
            status: outcome.from,
            amount: Number(outcome.transaction.amount),
            currency: outcome.transaction.currency,
          },
          after: { status: outcome.transaction.status, ...(rejection === null ? {} : { reason: rejection }) },
        });
      });
    } catch (err) {
      if (err instanceof DomainError && err.code === 'INVALID_STATE') return 'already_decided';
      throw err;
    }
    (rejection === null ? this.approved : this.rejected).add(transactionId);
    return 'decided';
  }
}
