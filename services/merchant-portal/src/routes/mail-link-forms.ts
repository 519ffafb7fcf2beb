/** The forms behind a mail's link: a new password typed twice (and a name for a new member). */
import Joi from 'joi';
import { linkMessages } from '../i18n/team.js';

export const MIN_PASSWORD = 12;

/** The link's token as we issue it (43 base64url characters); anything else is not ours. */
export const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

const passwordForm = Joi.object<{ name?: string; password: string; confirm: string }>({
  name: Joi.string().trim().min(1).max(100),
  password: Joi.string().min(MIN_PASSWORD).max(1024).required(),
  confirm: Joi.string().max(1024).required(),
}).unknown(true);

/** The values, or the message of the first problem in the page's language. */
export function readPasswordForm(
  body: unknown,
  messages: ReturnType<typeof linkMessages>,
  withName: boolean,
): { ok: true; name: string; password: string } | { ok: false; error: string; name: string } {
  const raw = (body ?? {}) as Record<string, unknown>;
  const typedName = typeof raw.name === 'string' ? raw.name.slice(0, 100) : '';
  const { value, error } = passwordForm.validate(raw, { presence: 'optional' });
  if (withName && (!value?.name || error?.details.some((d) => d.path[0] === 'name'))) {
    return { ok: false, error: messages.badName, name: typedName };
  }
  if (error || !value) return { ok: false, error: messages.shortPassword, name: typedName };
  if (value.password !== value.confirm) return { ok: false, error: messages.mismatch, name: typedName };
  return { ok: true, name: value.name ?? '', password: value.password };
}
