import Joi from 'joi';
import type { OperatorResult } from '@mm/domain';
import {
  NOT_FOUND_AT_OPERATOR,
  type DisbursementRequest,
  type RefundRequest,
  type UssdPushRequest,
} from '../operator-adapter.js';
import { MTN_REASONS, UNKNOWN_REASON } from './reasons.js';

/**
 * MTN MoMo's wire format <-> our OperatorResult. Pure: no I/O; functions return null for an answer outside
 * the protocol and the client decides what that means. Schemas allow unknown fields (MTN adds some).
 */

export interface MtnParty {
  partyIdType: 'MSISDN';
  partyId: string;
}
interface Notes {
  payerMessage: string;
  payeeNote: string;
}
export interface RequestToPayBody extends Notes {
  amount: string;
  currency: string;
  externalId: string;
  payer: MtnParty;
}
export interface RefundBody extends Notes {
  amount: string;
  currency: string;
  externalId: string;
  referenceIdToRefund: string;
}
export interface TransferBody extends Notes {
  amount: string;
  currency: string;
  externalId: string;
  payee: MtnParty;
}

/** MTN wants the number with its country code and no "+" (M5). */
export function partyOf(msisdn: string): MtnParty {
  return { partyIdType: 'MSISDN', partyId: msisdn.replace(/\D/g, '') };
}

/**
 * payerMessage / payeeNote: at most 160 characters, and MTN answers 400 to "unsupported special characters,
 * for example an apostrophe" (M3): a merchant's "Achat d'un billet" must not fail the payment, so accents are
 * dropped and anything but letters, digits and plain punctuation becomes a space.
 */
export function mtnNote(text: string | null | undefined, fallback: string): string {
  const plain = (text ?? '')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .,:_/-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (plain || fallback).slice(0, 160);
}

const notes = (text: string | null | undefined, fallback: string): Notes => ({
  payerMessage: mtnNote(text, fallback),
  payeeNote: mtnNote(text, fallback),
});

export function toRequestToPayBody(req: UssdPushRequest): RequestToPayBody {
  return {
    amount: String(req.amount),
    currency: req.currency,
    externalId: req.partnerReference,
    payer: partyOf(req.msisdn),
    ...notes(req.motif, `Payment ${req.partnerReference}`),
  };
}

export function toRefundBody(req: RefundRequest, referenceIdToRefund: string): RefundBody {
  return {
    amount: String(req.amount),
    currency: req.currency,
    externalId: req.partnerReference,
    referenceIdToRefund,
    ...notes(`Refund ${req.originalPartnerReference}`, 'Refund'),
  };
}

export function toTransferBody(req: DisbursementRequest): TransferBody {
  return {
    amount: String(req.amount),
    currency: req.currency,
    externalId: req.partnerReference,
    payee: partyOf(req.msisdn),
    ...notes(req.reason, `Payout ${req.partnerReference}`),
  };
}

type WireReason = string | { code: string; message?: string };
interface WireStatus {
  status: string;
  reason?: WireReason | null;
  financialTransactionId?: string | number | null;
  externalId?: string | number | null;
}

const idSchema = () => Joi.alternatives(Joi.string(), Joi.number()).allow(null);
// The OpenAPI file says `reason: {code, message}`; the sandbox sends a bare string (operators-reference.md): both are read.
const reasonSchema = Joi.alternatives(
  Joi.string(),
  Joi.object({ code: Joi.string().required(), message: Joi.string().allow('') }).unknown(true),
).allow(null);
const statusSchema = Joi.object({
  status: Joi.string().required(),
  reason: reasonSchema,
  financialTransactionId: idSchema(),
  externalId: idSchema(),
}).unknown(true);
const errorSchema = Joi.object({ code: Joi.string().required() }).unknown(true);

function validated<T>(schema: Joi.Schema, data: unknown): T | null {
  const { value, error } = schema.validate(data, { convert: false });
  return error ? null : (value as T);
}

/** CREATED is undocumented but seen in the sandbox before PENDING (M7); ONGOING is another source's name for it. */
const UNDECIDED = new Set(['PENDING', 'CREATED', 'ONGOING']);

export const PENDING_RESULT: OperatorResult = {
  providerState: 'PENDING',
  providerTxnStatus: null,
  providerTxId: null,
  failureReason: null,
};

/** A FAILED status and its reason, mapped by the table in reasons.ts. */
export function failedResult(
  reason: WireReason | null | undefined,
  providerTxId: string | null = null,
): OperatorResult {
  const code = typeof reason === 'string' ? reason : (reason?.code ?? null);
  const message = typeof reason === 'string' ? reason : reason?.message || code;
  const row = (code !== null && Object.hasOwn(MTN_REASONS, code) ? MTN_REASONS[code] : undefined) ?? UNKNOWN_REASON;
  return {
    providerState: row.state,
    providerTxnStatus: code ?? 'FAILED',
    providerTxId,
    failureReason: (message ?? 'FAILED').slice(0, 200),
    failureCode: row.failureCode,
  };
}

/** A status body (request to pay, refund or transfer; also a callback's body) as our result; null if not the protocol. */
export function resultFromStatusBody(data: unknown): OperatorResult | null {
  const body = validated<WireStatus>(statusSchema, data);
  if (!body) return null;
  const txId =
    body.financialTransactionId === undefined || body.financialTransactionId === null
      ? null
      : String(body.financialTransactionId);
  if (UNDECIDED.has(body.status)) return PENDING_RESULT;
  if (body.status === 'SUCCESSFUL')
    return {
      providerState: 'OK',
      providerTxnStatus: '200',
      providerTxId: txId,
      failureReason: null,
      failureCode: null,
    };
  if (body.status === 'FAILED') return failedResult(body.reason, txId);
  // A status MTN has not documented decides nothing: never read as a failure.
  return null;
}

/** The externalId MTN echoes (our reference), when the body has one. */
export function externalIdOf(data: unknown): string | null {
  const body = validated<WireStatus>(statusSchema, data);
  return body?.externalId === undefined || body.externalId === null ? null : String(body.externalId);
}

/** MTN's error body `{code, message}`: its code, or null. */
export function errorCodeOf(data: unknown): string | null {
  return validated<{ code: string }>(errorSchema, data)?.code ?? null;
}

/** 200 = the request as MTN has it; 404 RESOURCE_NOT_FOUND = never created (or not visible yet). Else null. */
export function statusLookup(status: number, data: unknown): (OperatorResult & { found: boolean }) | null {
  if (status === 404 && errorCodeOf(data) === 'RESOURCE_NOT_FOUND') return NOT_FOUND_AT_OPERATOR;
  if (status !== 200) return null;
  const result = resultFromStatusBody(data);
  return result && { found: true, ...result };
}
