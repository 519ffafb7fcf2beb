import { DomainError } from './errors.js';

/**
 * The answer to a signed request received before: one code and message wherever the replay is found
 * (the gateway's Redis guard, or the row a refund or cash-out keeps after Redis lost its data), so a
 * merchant cannot tell the two apart.
 */
export function requestReplayed(): DomainError {
  return new DomainError('REQUEST_REPLAYED', 'this signed request was already received');
}
