import { createHash } from 'node:crypto';
import type { CallbackHint } from '../operator-adapter.js';
import { externalIdOf, resultFromStatusBody } from './mapping.js';

/** Our references as the callback URL carries them: one path segment, no slash. */
const REFERENCE = /^[A-Za-z0-9._~-]{1,128}$/;

function referenceOf(path: string | undefined): string | null {
  if (path === undefined) return null;
  let segment: string;
  try {
    segment = decodeURIComponent(path.startsWith('/') ? path.slice(1) : path);
  } catch {
    return null;
  }
  return REFERENCE.test(segment) ? segment : null;
}

/**
 * MTN's callbacks are unsigned (M1): anyone could send one, and MTN itself sends FAILED while its status still
 * says PENDING (M7). So nothing in it is applied: it names the payment (the reference in the URL we gave as
 * X-Callback-Url) and the bridge asks MTN's status. A body that is not MTN's status body, or whose externalId
 * names another payment than the URL, is not one of ours: null.
 */
export function hintFromCallback(rawBody: Buffer, path: string | undefined): CallbackHint | null {
  const partnerReference = referenceOf(path);
  if (partnerReference === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return null;
  }
  if (resultFromStatusBody(data) === null) return null;
  const externalId = externalIdOf(data);
  if (externalId !== null && externalId !== partnerReference) return null;
  // MTN may send the same callback twice minutes apart (M7): the same bytes for the same payment are one delivery.
  const replayKey = createHash('sha256').update(partnerReference).update('\n').update(rawBody).digest('hex');
  return { hint: true, partnerReference, replayKey };
}
