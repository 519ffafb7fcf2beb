import type { MockPaymentRecord, MockRecords } from '@mm/operator-mocks';
import type { ChaosSystem } from './chaos-system.js';
import type { MockName } from './operator-mocks-control.js';
import type { SimulatorDisbursement, SimulatorPush, SimulatorRefund } from './simulator-control.js';

/** What the operator holding a transaction's payment says of it, in the same terms for the simulator and every mock. */
export interface OperatorView {
  /** SIMULATOR, or the mock (mtnCi, mtnCm, orangeMp, wave, orangeWebpay). */
  where: string;
  /** Payments it created for the transaction: phone rings, requests to pay, pays taken, checkout sessions. */
  created: number;
  /** Its state, in its own terms (for the messages). */
  state: string;
  /** It took the money. */
  taken: boolean;
  /** It decided for good: nothing but a refund will change it. */
  decided: boolean;
  /** Money it gave back for the payment; null where refunds are counted by their own reference (the simulator). */
  refundsPaid: number | null;
}

/** A cash-out's payout as the operator holds it under the cash-out's reference. */
export interface PayoutView {
  where: string;
  /** Payouts it created for the reference (a correct client never makes it more than 1). */
  created: number;
  /** How many of them gave the beneficiary money. */
  paid: number;
  state: string;
  /** What it paid or would have paid; null where the operator's record does not say (the mocks). */
  amount: number | null;
}

/** Mocks whose refunds carry a reference of ours (MTN's externalId): each refund row is checked against its own. */
const REFUNDS_BY_REFERENCE: ReadonlySet<MockName> = new Set(['mtnCi', 'mtnCm']);

type Tx = { providerReference: string; countryCode: string; operator: string };

/**
 * Every operator's own records, read once: the simulator's sandbox lists and, in a system started with
 * `operatorMocks`, each mock's /_mock/records. A transaction is looked up where its operator account points.
 */
export class OperatorRecords {
  private constructor(
    private readonly sys: ChaosSystem,
    private readonly pushes: Map<string, SimulatorPush>,
    private readonly simulatorRefunds: Map<string, SimulatorRefund>,
    private readonly disbursements: Map<string, SimulatorDisbursement>,
    private readonly mocks: Record<MockName, MockRecords> | null,
  ) {}

  static async read(sys: ChaosSystem): Promise<OperatorRecords> {
    const [pushes, refunds, disbursements, mocks] = await Promise.all([
      sys.simulator.pushes(),
      sys.simulator.refunds(),
      sys.simulator.disbursements(),
      sys.operators?.records() ?? null,
    ]);
    return new OperatorRecords(sys, pushes, refunds, disbursements, mocks);
  }

  mockOf(t: Tx): MockName | null {
    return this.sys.operators?.mockOf(t) ?? null;
  }

  /** undefined: the operator never saw the transaction. */
  view(t: Tx): OperatorView | undefined {
    const mock = this.mockOf(t);
    if (mock === null) {
      const push = this.pushes.get(t.providerReference);
      return (
        push && {
          where: 'SIMULATOR',
          created: push.push_count,
          state: push.state,
          taken: push.state === 'OK',
          decided: push.state !== 'PENDING',
          refundsPaid: null,
        }
      );
    }
    const p: MockPaymentRecord | undefined = this.mocks?.[mock].payments.find(
      (x) => x.reference === t.providerReference,
    );
    return (
      p && {
        where: mock,
        created: p.created,
        state: p.state,
        taken: p.taken,
        decided: p.decided,
        refundsPaid: p.refundsPaid,
      }
    );
  }

  /**
   * A refund as the operator holds it under the refund's own reference: how many times it was paid out and
   * created (null: the simulator counts only payouts). null where the operator's refunds name no reference of ours (Wave, Orange): the payment's
   * refundsPaid is what counts there.
   */
  refund(t: Tx, refundReference: string): { paid: number; created: number | null; state: string } | null {
    const mock = this.mockOf(t);
    if (mock === null) {
      const r = this.simulatorRefunds.get(refundReference);
      return {
        paid: r?.answer.state === 'OK' ? r.refund_count : 0,
        created: null,
        state: r?.answer.state ?? 'never seen',
      };
    }
    if (!REFUNDS_BY_REFERENCE.has(mock)) return null;
    const r = this.mocks?.[mock].refunds.find((x) => x.reference === refundReference);
    return { paid: r?.paid ?? 0, created: r?.created ?? 0, state: r?.state ?? 'never seen' };
  }

  /** A cash-out's payout where its operator account points; undefined: the operator never saw it. */
  payout(t: Tx): PayoutView | undefined {
    const mock = this.mockOf(t);
    if (mock === null) {
      const d = this.disbursements.get(t.providerReference);
      return (
        d && {
          where: 'SIMULATOR',
          created: d.disbursement_count,
          paid: d.answer.state === 'OK' ? d.disbursement_count : 0,
          state: d.answer.state,
          amount: d.amount,
        }
      );
    }
    const p = this.mocks?.[mock].payouts.find((x) => x.reference === t.providerReference);
    return p && { where: mock, created: p.created, paid: p.paid, state: p.state, amount: null };
  }

  /**
   * The references of every payout any operator holds: one that is no cash-out's reference is money sent
   * under a reference we no longer know (a retry that made a new one), which no row would show.
   */
  payoutReferences(): { where: string; reference: string }[] {
    const mocks = Object.entries(this.mocks ?? {}) as [MockName, MockRecords][];
    return [
      ...[...this.disbursements.keys()].map((reference) => ({ where: 'SIMULATOR', reference })),
      ...mocks.flatMap(([where, r]) => r.payouts.map((p) => ({ where, reference: p.reference }))),
    ];
  }
}
