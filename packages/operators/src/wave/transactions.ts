import Joi from 'joi';
import { parseMsisdn, type OperatorRecord, type RecordKind, type RecordOutcome } from '@mm/domain';

/**
 * Wave's Balance & Reconciliation API, `GET /v1/transactions?date=YYYY-MM-DD&after=<cursor>` (docs.wave.com/
 * balance-api; the shape from 0xc007b/wave-api-client `src/api/balance/types.ts` and integrators' examples):
 * `{page_info: {start_cursor, end_cursor, has_next_page}, date, items: [{timestamp, transaction_id,
 * transaction_type, amount, fee, balance, currency, is_reversal, counterparty_name, counterparty_mobile,
 * client_reference, payment_reason, checkout_api_session_id, ...}]}`, amounts as strings. Pure; null for an
 * answer outside the protocol.
 *
 * What it can prove: the items are the transactions Wave executed on the wallet, with no status field, so
 * every one is a SUCCESS; a checkout that failed, was abandoned or is still open is simply not there (our
 * FAILED then matches nothing, as it should; our SUCCESS missing from it is a difference).
 */

export interface WaveTransaction {
  timestamp: string;
  transaction_id: string;
  transaction_type?: string | null;
  /** The signed change this transaction made to the wallet: the net of the fee (990 for a payment of 1000, fee 10). */
  amount: string;
  /** What the transaction cost the wallet; negative when Wave gives a fee back (a checkout refunded with its fee). */
  fee: string;
  currency: string;
  is_reversal?: boolean | null;
  client_reference?: string | null;
  checkout_api_session_id?: string | null;
  /** The customer's number (the payer of a checkout, the beneficiary of a payout), when Wave gives it. */
  counterparty_mobile?: string | null;
}

export interface WaveTransactionsPage {
  date: string;
  items: WaveTransaction[];
  next: string | null;
}

const SIGNED = /^-?\d+(\.\d+)?$/;
const optionalText = () => Joi.string().allow(null, '');
const itemSchema = Joi.object({
  timestamp: Joi.string().required(),
  transaction_id: Joi.string().min(1).required(),
  transaction_type: optionalText(),
  amount: Joi.string().pattern(SIGNED).required(),
  fee: Joi.string().pattern(SIGNED).required(),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .required(),
  is_reversal: Joi.boolean().allow(null),
  client_reference: optionalText(),
  checkout_api_session_id: optionalText(),
  counterparty_mobile: optionalText(),
}).unknown(true);
const pageSchema = Joi.object({
  page_info: Joi.object({ end_cursor: Joi.string().allow(null, ''), has_next_page: Joi.boolean().required() })
    .unknown(true)
    .required(),
  date: Joi.string().required(),
  items: Joi.array().items(itemSchema).required(),
}).unknown(true);

export function transactionsPageOf(data: unknown): WaveTransactionsPage | null {
  const { value, error } = pageSchema.validate(data, { convert: false });
  if (error) return null;
  const page = value as {
    page_info: { end_cursor?: string | null; has_next_page: boolean };
    date: string;
    items: WaveTransaction[];
  };
  const next = page.page_info.has_next_page ? page.page_info.end_cursor || null : null;
  // More pages and no cursor to reach them: a page we cannot continue from is no list.
  if (page.page_info.has_next_page && next === null) return null;
  return { date: page.date, items: page.items, next };
}

/**
 * Which of our movements a transaction is, by its type (the SDK's TransactionType): Checkout API payments and
 * their refunds, Payout API payouts and their reversals (a reversed payout gave the money back: FAILED, which
 * the matching rules take as the newer word on the payout). Merchant (QR) payments, bulk, B2B payments and
 * sweeps are not made through this service: null, left out. A type left empty (the SDK: "can be empty") with a
 * checkout session id is a checkout.
 */
function kindOf(t: WaveTransaction): { kind: RecordKind; outcome: RecordOutcome } | null {
  const type = t.transaction_type || (t.checkout_api_session_id ? 'api_checkout' : '');
  switch (type) {
    case 'api_checkout':
      return t.is_reversal ? { kind: 'REFUND', outcome: 'SUCCESS' } : { kind: 'CASHIN', outcome: 'SUCCESS' };
    case 'api_checkout_refund':
      return { kind: 'REFUND', outcome: 'SUCCESS' };
    case 'api_payout':
      return { kind: 'PAYOUT', outcome: t.is_reversal ? 'FAILED' : 'SUCCESS' };
    case 'api_payout_reversal':
      return { kind: 'PAYOUT', outcome: 'FAILED' };
    default:
      return null;
  }
}

/**
 * The movement's own amount, what the customer paid or received, from the wallet's change and its fee: a
 * payment of 1000 with a fee of 10 shows amount 990 (Wave's example), a payout of 500 with a fee of 5 takes
 * 505, a refund of 1000 whose fee Wave gives back takes 990 with fee -10: |amount + fee| each time. The sign
 * of a payout's or a refund's fee is not shown by any public source: if Wave signs it otherwise, those
 * amounts come out wrong by twice the fee and show as AMOUNT_DIFFERS cases, never silently.
 */
function grossOf(t: WaveTransaction): number {
  return Math.abs(Math.round((Number(t.amount) + Number(t.fee)) * 100) / 100);
}

/**
 * A transaction as Wave's record of one of our movements; null for one that is not ours to reconcile.
 * Keys: a checkout and a payout by client_reference (ours) and transaction_id; a refund by the checkout
 * session it gave back, which is what our books hold as the refund's operator id (WaveOperatorAdapter.refund):
 * Wave's refund carries no reference of ours (a client_reference on it would be the checkout's).
 */
export function recordOfTransaction(t: WaveTransaction): OperatorRecord | null {
  const kind = kindOf(t);
  if (!kind) return null;
  // A Wave wallet is one country's; the customer's number tells the movements apart where two accounts share one.
  const countryCode = t.counterparty_mobile ? (parseMsisdn(t.counterparty_mobile)?.countryCode ?? null) : null;
  const common = { ...kind, amount: grossOf(t), currency: t.currency, ...(countryCode ? { countryCode } : {}) };
  if (kind.kind === 'REFUND')
    return { ...common, reference: null, operatorTxId: t.checkout_api_session_id || t.transaction_id };
  return { ...common, reference: t.client_reference || null, operatorTxId: t.transaction_id };
}
