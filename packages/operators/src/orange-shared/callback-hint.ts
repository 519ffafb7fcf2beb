import { createHash } from 'node:crypto';
import type { CallbackHint } from '../operator-adapter.js';

/**
 * Orange's notifications (WebPay's notif_url, mp's notifUrl) are not signed: whatever they say, the bridge
 * only asks the status of the payment the callback URL names. The reference comes from the path (the
 * bridge's per-payment URL), never from the body; a body that is not a JSON object is not Orange's.
 */
export function orangeCallbackHint(rawBody: Buffer, path: string | undefined): CallbackHint | null {
  const partnerReference = referenceFromPath(path);
  if (!partnerReference) return null;
  let data: unknown;
  try {
    data = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const replayKey = createHash('sha256').update(partnerReference).update('\n').update(rawBody).digest('hex');
  return { hint: true, partnerReference, replayKey };
}

function referenceFromPath(path: string | undefined): string | null {
  if (path === undefined) return null;
  const trimmed = path.replace(/^\/+/, '').split('?')[0] ?? '';
  if (trimmed === '' || trimmed.includes('/')) return null;
  try {
    return decodeURIComponent(trimmed);
  } catch {
    return null;
  }
}
