import Joi from 'joi';
import type { OperatorRecord, RecordKind, RecordOutcome } from '@mm/domain';

/**
 * MTN's status body of a request to pay, refund or transfer as its record of the movement (reconciliation).
 * Pure; null for a body outside the protocol. The same statuses as mapping.ts: CREATED (seen in the sandbox)
 * and ONGOING (another source's name) are undecided; a status MTN has not documented decides nothing.
 */
const OUTCOMES: Readonly<Record<string, RecordOutcome>> = {
  SUCCESSFUL: 'SUCCESS',
  FAILED: 'FAILED',
  PENDING: 'PENDING',
  CREATED: 'PENDING',
  ONGOING: 'PENDING',
};

const id = () => Joi.alternatives(Joi.string(), Joi.number()).allow(null, '');
// MTN sends amounts as strings ("5000", M5); a number is read too.
const schema = Joi.object({
  status: Joi.string().required(),
  amount: Joi.alternatives(Joi.string().pattern(/^\d+(\.\d+)?$/), Joi.number().min(0)).required(),
  currency: Joi.string()
    .pattern(/^[A-Z]{3}$/)
    .required(),
  externalId: id(),
  financialTransactionId: id(),
}).unknown(true);

interface WireRecord {
  status: string;
  amount: string | number;
  currency: string;
  externalId?: string | number | null;
  financialTransactionId?: string | number | null;
}

const text = (v: string | number | null | undefined) => (v === undefined || v === null || v === '' ? null : String(v));

/**
 * `askedReference` is the reference the X-Reference-Id was derived from: MTN holds the movement under it, so the
 * record is ours even when the body leaves externalId out; an externalId MTN echoes is its word and is kept as is.
 */
export function recordFromMtnStatus(kind: RecordKind, data: unknown, askedReference: string): OperatorRecord | null {
  const { value, error } = schema.validate(data, { convert: false });
  if (error) return null;
  const body = value as WireRecord;
  const outcome = Object.hasOwn(OUTCOMES, body.status) ? OUTCOMES[body.status]! : null;
  if (!outcome) return null;
  return {
    kind,
    reference: text(body.externalId) ?? askedReference,
    // Only once settled (M3): a pending or failed movement has none.
    operatorTxId: text(body.financialTransactionId),
    amount: Number(body.amount),
    currency: body.currency,
    outcome,
  };
}
