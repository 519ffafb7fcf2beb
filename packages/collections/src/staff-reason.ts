import { Joi } from '@mm/config';

const reasonSchema = Joi.string().trim().min(3).max(255).required();

/**
 * The reason a staff member gives for a cash-out's rejection (the merchant receives it) or a write-off
 * (kept in the case and the audit log): 3 to 255 characters once trimmed; null when it is not one.
 */
export function parseStaffReason(raw: unknown): string | null {
  const { value, error } = reasonSchema.validate(raw);
  return error ? null : (value as string);
}
