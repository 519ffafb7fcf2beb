import Joi from 'joi';
import { parseMsisdn, RECORD_KINDS, type OperatorRecord, type RecordKind, type RecordOutcome } from '@mm/domain';
import type { OperatorRecordsPage } from '../operator-adapter.js';

/**
 * The simulator's GET /v1/transactions (its README) -> one page of operator records. Pure; null for an answer
 * outside the protocol. Each item says its state in the simulator's own words: a cash-in's `PENDING | OK |
 * canceled | KO` (as its status query), a refund's or a disbursement's `OK | FAILED` (as their answers).
 */

type WireStatus = 'PENDING' | 'OK' | 'canceled' | 'KO' | 'FAILED';

interface WireItem {
  kind: RecordKind;
  partner_reference: string;
  id: string | null;
  amount: number;
  currency: string;
  status: WireStatus;
  /** The customer's number (the simulator serves every country's SIMULATOR account from one list). */
  msisdn?: string | null;
}

const OUTCOMES: Readonly<Record<WireStatus, RecordOutcome>> = {
  OK: 'SUCCESS',
  PENDING: 'PENDING',
  canceled: 'FAILED',
  KO: 'FAILED',
  FAILED: 'FAILED',
};

// Unknown fields are allowed (created_at, original_partner_reference, and whatever the operator adds later).
const itemSchema = Joi.object({
  kind: Joi.string()
    .valid(...RECORD_KINDS)
    .required(),
  partner_reference: Joi.string().min(1).required(),
  id: Joi.string().min(1).allow(null).required(),
  amount: Joi.number().min(0).required(),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .required(),
  status: Joi.string()
    .valid(...Object.keys(OUTCOMES))
    .required(),
}).unknown(true);
const pageSchema = Joi.object({
  items: Joi.array().items(itemSchema).required(),
  next: Joi.string().min(1).allow(null).required(),
}).unknown(true);

export function recordOfItem(item: WireItem): OperatorRecord {
  const record: OperatorRecord = {
    kind: item.kind,
    reference: item.partner_reference,
    operatorTxId: item.id,
    amount: item.amount,
    currency: item.currency,
    outcome: OUTCOMES[item.status],
  };
  const countryCode = item.msisdn ? parseMsisdn(item.msisdn)?.countryCode : null;
  return countryCode ? { ...record, countryCode } : record;
}

export function recordsPageFromResponse(status: number, data: unknown): OperatorRecordsPage | null {
  if (status !== 200) return null;
  const { value, error } = pageSchema.validate(data, { convert: false });
  if (error) return null;
  const page = value as { items: WireItem[]; next: string | null };
  return { records: page.items.map(recordOfItem), next: page.next };
}
