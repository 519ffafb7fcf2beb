import type { Request } from 'express';
import { idempotencyKeySchema } from './refund-schema.js';
import { invalidField } from './validate.js';

/** The request's optional Idempotency-Key header (refunds, payment links); a malformed one is a 400 naming it. */
export function idempotencyKeyOf(req: Request): string | null {
  const key = req.get('idempotency-key') ?? null;
  if (key !== null && idempotencyKeySchema.validate(key).error)
    throw invalidField('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
  return key;
}
