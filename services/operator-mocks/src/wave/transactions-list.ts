import { before, cursorFor, linesOfDay, pageOf, plantedTxId, type StatementLine } from '@mm/fake-operator';
import type { WaveSource } from './statement.js';

export interface TransactionsListOptions {
  checkoutFeeRate: number;
  payoutFeeRate: number;
  /** The wallet's balance before the mock's first transaction. */
  openingBalance: number;
  /** The wallet's currency (its balance's). */
  currency: string;
  pageSize: number;
}

const money = (n: number) => String(Math.round(n * 100) / 100);

/**
 * One transaction as Wave's list shows it (docs.wave.com/balance-api; 0xc007b/wave-api-client TransactionItem):
 * `amount` is the signed change to the wallet, net of the fee (a checkout of 1000 with a fee of 10: 990; a
 * payout of 500 with a fee of 5: -505; a checkout refunded with its fee: -990, fee -10), strings as Wave sends.
 */
function itemOf(line: StatementLine<WaveSource>, o: TransactionsListOptions): Record<string, unknown> {
  const common = {
    timestamp: new Date(line.occurredAtMs).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    currency: line.currency,
    counterparty_name: null as string | null,
    payment_reason: null as string | null,
  };
  const src = line.source;
  if (line.kind === 'PAYOUT') {
    const payout = src?.type === 'payout' ? src : undefined;
    const fee = Math.ceil(line.amount * o.payoutFeeRate);
    return {
      // A planted unknown payout has no payout behind it: its operator id is its transaction id.
      ...common,
      transaction_id: payout?.transactionId ?? line.operatorTxId ?? plantedTxId(line.lineId),
      transaction_type: 'api_payout',
      amount: money(-(line.amount + fee)),
      fee: money(fee),
      is_reversal: false,
      counterparty_name: payout?.payout.name ?? null,
      counterparty_mobile: payout?.payout.mobile ?? null,
      client_reference: line.reference,
      payment_reason: payout?.payout.payment_reason ?? null,
      checkout_api_session_id: null,
    };
  }
  const session = src?.type === 'checkout' || src?.type === 'refund' ? src.session : undefined;
  const fee = Math.ceil(line.amount * o.checkoutFeeRate);
  if (line.kind === 'REFUND') {
    return {
      ...common,
      transaction_id: session?.refundTransactionId ?? plantedTxId(line.lineId),
      transaction_type: 'api_checkout_refund',
      amount: money(-(line.amount - fee)),
      fee: money(-fee),
      is_reversal: true,
      counterparty_mobile: session?.restrict_payer_mobile ?? null,
      client_reference: session?.client_reference ?? line.reference,
      checkout_api_session_id: line.operatorTxId,
    };
  }
  return {
    ...common,
    transaction_id: line.operatorTxId ?? plantedTxId(line.lineId),
    transaction_type: 'api_checkout',
    amount: money(line.amount - fee),
    fee: money(fee),
    is_reversal: false,
    counterparty_mobile: session?.restrict_payer_mobile ?? null,
    client_reference: line.reference,
    checkout_api_session_id: session?.id ?? null,
  };
}

/** Every executed transaction of the wallet as its list shows it, with the balance after each, and the balance after the last. */
function ledger(
  told: readonly StatementLine<WaveSource>[],
  o: TransactionsListOptions,
): { items: Map<string, Record<string, unknown>>; balance: number } {
  const items = new Map<string, Record<string, unknown>>();
  let balance = o.openingBalance;
  for (const line of told.filter((l) => l.status === 'SUCCESS').sort(before)) {
    const item = itemOf(line, o);
    balance += Number(item.amount);
    items.set(line.lineId, { ...item, balance: money(balance) });
  }
  return { items, balance };
}

/**
 * GET /v1/transactions?date=&after=: the wallet's executed transactions of the day (successes only: Wave lists
 * what moved money, with no status), oldest first, each with the balance after it; null when `after` is not a
 * cursor of that day's list.
 */
export function transactionsAnswer(
  told: readonly StatementLine<WaveSource>[],
  date: string,
  after: string | null,
  o: TransactionsListOptions,
): Record<string, unknown> | null {
  const { items } = ledger(told, o);
  const page = pageOf(
    linesOfDay(
      told.filter((l) => l.status === 'SUCCESS'),
      date,
    ),
    date,
    after,
    o.pageSize,
  );
  if (!page) return null;
  const first = page.items[0];
  const last = page.items.at(-1);
  return {
    page_info: {
      start_cursor: after !== null && first ? cursorFor(date, first) : null,
      end_cursor: last ? cursorFor(date, last) : null,
      has_next_page: page.next !== null,
    },
    date,
    items: page.items.map((l) => items.get(l.lineId)),
  };
}

/**
 * GET /v1/balance: `{amount, currency}` (0xc007b/wave-api-client `Balance`, amount a string), the balance after the
 * wallet's last executed transaction, so it is always the last `balance` its list shows.
 */
export function balanceAnswer(
  told: readonly StatementLine<WaveSource>[],
  o: TransactionsListOptions,
): { amount: string; currency: string } {
  return { amount: money(ledger(told, o).balance), currency: o.currency };
}
