/**
 * The checks of the merchant form fields, shared by creation and the webhook URL change, so both
 * refuse the same values with the same message (shown next to the form).
 */
import { httpUrl } from '../webhooks/http-url.js';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

const NAME_MAX = 200;

export const WEBHOOK_URL_ERROR =
  'The default webhook URL must be a full http:// or https:// address, such as https://shop.example/webhooks (2048 characters at most).';

export function parseMerchantName(raw: string): Parsed<string> {
  const name = raw.trim();
  if (name === '') return { ok: false, error: 'The merchant name is required.' };
  if (name.length > NAME_MAX) return { ok: false, error: `The merchant name is ${NAME_MAX} characters at most.` };
  return { ok: true, value: name };
}

export const WEBHOOK_URL_CREDENTIALS_ERROR = 'The default webhook URL must not contain a user name or password.';

/** An empty field means "no default URL" (each payment then needs its own notify_url). */
export function parseWebhookUrl(raw: string): Parsed<string | null> {
  const url = raw.trim();
  if (url === '') return { ok: true, value: null };
  if (httpUrl.validate(url).error) return { ok: false, error: WEBHOOK_URL_ERROR };
  const parsed = new URL(url);
  // Credentials in the URL would be shown on every page and kept for ever in the audit log.
  if (parsed.username || parsed.password) return { ok: false, error: WEBHOOK_URL_CREDENTIALS_ERROR };
  return { ok: true, value: url };
}
