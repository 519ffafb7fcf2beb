/**
 * The refund form of a payment's page, read into the body POST /v1/refunds takes and checked by the
 * API's own schema (refundSchema, strict), then the use case's refusals in the user's language. The
 * rules themselves (SUCCESS cash-ins only, the room left, the balance) are requestRefund's alone.
 */
import { createHash } from 'node:crypto';
import { refundSchema, validate, type RefundBody } from '@mm/collections';
import { DomainError, ERROR_STATUS, isUuid } from '@mm/domain';
import { formField } from '@mm/web';
import type { Request } from 'express';
import type { PaymentsText } from '../i18n/payments.js';

export interface RefundForm {
  body: RefundBody;
  /** The form's one-time key, rendered with it: a double submit asks for one refund. */
  formKey: string;
}

export type ParsedRefundForm = { ok: true; form: RefundForm } | { ok: false; error: string };

/** What the form sent, to show it again with an error. */
export function refundFormValues(req: Request): { idempotencyKey: string; amount: string; reason: string } {
  return {
    idempotencyKey: formField(req, 'idempotency_key'),
    amount: formField(req, 'amount'),
    reason: formField(req, 'reason'),
  };
}

export function parseRefundForm(req: Request, transactionId: string, m: PaymentsText): ParsedRefundForm {
  const formKey = formField(req, 'idempotency_key');
  if (!isUuid(formKey)) return { ok: false, error: m.errRefundForm };
  // Typed text; the API's schema then checks the number it reads as (positive, whole, safe).
  const typed = formField(req, 'amount').replace(/[\s\u202f]/g, '');
  if (typed !== '' && !/^\d+$/.test(typed)) return { ok: false, error: m.errRefundAmount };
  const reason = formField(req, 'reason').trim();
  try {
    const body = validate(refundSchema, {
      transaction_id: transactionId,
      ...(typed !== '' ? { amount: Number(typed) } : {}),
      ...(reason !== '' ? { reason } : {}),
    });
    return { ok: true, form: { body, formKey: formKey.toLowerCase() } };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    const fields = new Set(err.details?.map((d) => d.field));
    return {
      ok: false,
      error: fields.has('amount') ? m.errRefundAmount : fields.has('reason') ? m.errRefundReason : m.errRefundForm,
    };
  }
}

/**
 * The Idempotency-Key the portal sends for a form: its own namespace ("portal:") beside the keys a
 * merchant's API client picks, so one of theirs never names a portal refund by chance.
 */
export const portalIdempotencyKey = (formKey: string) => `portal:${formKey}`;

/**
 * What stands for the signed request (refunds.request_signature_hash, unique): a portal refund is asked
 * by a form, not a signed request, so the digest of the merchant and the form's one-time key. The same
 * form sent again is then refused by the database even if the idempotency key were lost, and it can be
 * told apart from any API refund (whose digest is of an API key and a signature).
 */
export function portalSignatureHash(merchantId: string, formKey: string): string {
  return createHash('sha256').update(`merchant-portal refund form\n${merchantId}\n${formKey}`).digest('hex');
}

/**
 * A refusal of requestRefund as the page shows it, with the status the API answers it with; `current`:
 * the payment as read again after the refusal, for the status the message names.
 */
export function refundRefusal(
  err: DomainError,
  m: PaymentsText,
  current: { type: string; status: string },
): { status: number; message: string } {
  const status = ERROR_STATUS[err.code];
  switch (err.code) {
    case 'INVALID_STATE':
      return {
        status,
        message: current.type !== 'CASHIN' ? m.errRefundCashout : m.errRefundState.replace('{status}', current.status),
      };
    case 'REFUND_EXCEEDS_AMOUNT':
      return { status, message: m.errRefundExceeds };
    case 'INSUFFICIENT_BALANCE':
      return { status, message: m.errRefundBalance };
    case 'IDEMPOTENCY_KEY_REUSED':
      return { status, message: m.errRefundKeyReused };
    case 'VALIDATION_ERROR':
      return { status, message: m.errRefundForm };
    default:
      throw err;
  }
}
