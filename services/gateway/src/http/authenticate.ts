import type { RequestHandler } from 'express';
import { DomainError, isIssuedApiKeyFormat, signatureMatches, timestampWithinTolerance } from '@mm/domain';
import type { ActiveKey } from '@mm/db';
import type { ReplayGuard } from './replay-guard.js';

export interface AuthDeps {
  findKey(apiKey: string): Promise<ActiveKey | null>;
  replayGuard: ReplayGuard;
  toleranceS: number;
  now(): number;
}

/** Reads the raw body that express.raw() left on the request; a bodiless request signs "". */
export function rawBodyOf(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}

/**
 * decisions 2: HMAC over timestamp + exact body bytes, constant-time compare, clock tolerance, and
 * replay rejection of non-GET requests inside the window. A key of a format never issued is refused
 * without being looked up.
 */
export function authenticate(deps: AuthDeps): RequestHandler {
  return async (req, res, next) => {
    try {
      const apiKey = req.get('x-service-key');
      const timestamp = req.get('x-service-timestamp');
      const signature = req.get('x-service-signature');
      if (!apiKey || !timestamp || !signature) {
        throw new DomainError('AUTHENTICATION_REQUIRED', 'X-Service-Key, X-Service-Timestamp and X-Service-Signature are required');
      }
      if (!isIssuedApiKeyFormat(apiKey)) throw new DomainError('INVALID_API_KEY', 'unknown or revoked API key');
      const key = await deps.findKey(apiKey);
      if (!key) throw new DomainError('INVALID_API_KEY', 'unknown or revoked API key');
      if (!timestampWithinTolerance(timestamp, deps.now(), deps.toleranceS)) {
        throw new DomainError('TIMESTAMP_OUT_OF_TOLERANCE', `X-Service-Timestamp must be within ${deps.toleranceS} s of the current time`);
      }
      if (!signatureMatches(key.secret, timestamp, rawBodyOf(req.body), signature)) {
        throw new DomainError('INVALID_SIGNATURE', 'signature does not match the request');
      }
      if (key.merchantStatus !== 'ACTIVE') throw new DomainError('MERCHANT_DISABLED', 'this merchant account is disabled');
      if (req.method !== 'GET' && !(await deps.replayGuard.firstUse(apiKey, signature))) {
        throw new DomainError('REQUEST_REPLAYED', 'this signed request was already received');
      }
      res.locals.merchantId = key.merchantId;
      next();
    } catch (err) {
      next(err);
    }
  };
}
