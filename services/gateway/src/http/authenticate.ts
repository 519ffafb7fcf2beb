import type { RequestHandler, Response } from 'express';
import {
  DomainError,
  ERROR_STATUS,
  isIssuedApiKeyFormat,
  requestReplayed,
  requestSignatureMatches,
  signatureMatches,
  timestampWithinTolerance,
} from '@mm/domain';
import type { FindKey } from '../key-lookup.js';
import type { AuthFailureLimit } from './auth-failure-limit.js';
import { clientAddressBucket } from '@mm/observability';
import { requestTargetOf } from './request-target.js';
import { setMerchantContext, setSignedRequest } from './request-context.js';
import type { ReplayGuard } from './replay-guard.js';

export interface AuthDeps {
  findKey: FindKey;
  replayGuard: ReplayGuard;
  authFailures: AuthFailureLimit;
  toleranceS: number;
  now(): number;
}

/** Reads the raw body that express.raw() left on the request; a bodiless request signs "". */
export function rawBodyOf(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}

function tooManyFailures(res: Response, retryAfterS: number): DomainError {
  res.setHeader('Retry-After', String(retryAfterS));
  return new DomainError(
    'RATE_LIMITED',
    `too many failed authentications from this address; retry after ${retryAfterS} s`,
  );
}

/**
 * decisions 2: HMAC over timestamp + exact body bytes, constant-time compare, clock tolerance, and
 * replay rejection of non-GET requests inside the window; X-Service-Request-Signature checked when sent.
 * A key of a format never issued is refused without being looked up. An address that failed too often
 * is refused before a key is read from the database and instead of every further 401 (AuthFailureLimit).
 */
export function authenticate(deps: AuthDeps): RequestHandler {
  return async (req, res, next) => {
    // req.ip honours TRUST_PROXY: the client's address, not the load balancer's, when one is in front.
    // Read now (the socket may be gone by the time a failure is counted); its bucket is worked out only
    // on the paths that count failures (a key read from the database, a 401).
    const ip = req.ip;
    const client = () => clientAddressBucket(ip);
    try {
      const apiKey = req.get('x-service-key');
      const timestamp = req.get('x-service-timestamp');
      const signature = req.get('x-service-signature');
      if (!apiKey || !timestamp || !signature) {
        throw new DomainError(
          'AUTHENTICATION_REQUIRED',
          'X-Service-Key, X-Service-Timestamp and X-Service-Signature are required',
        );
      }
      if (!isIssuedApiKeyFormat(apiKey)) throw new DomainError('INVALID_API_KEY', 'unknown or revoked API key');
      const key = await deps.findKey(apiKey, async () => {
        const retryAfterS = await deps.authFailures.retryAfterS(client());
        if (retryAfterS !== null) throw tooManyFailures(res, retryAfterS);
      });
      if (!key) throw new DomainError('INVALID_API_KEY', 'unknown or revoked API key');
      if (!timestampWithinTolerance(timestamp, deps.now(), deps.toleranceS)) {
        throw new DomainError(
          'TIMESTAMP_OUT_OF_TOLERANCE',
          `X-Service-Timestamp must be within ${deps.toleranceS} s of the current time`,
        );
      }
      const body = rawBodyOf(req.body);
      if (!signatureMatches(key.secret, timestamp, body, signature)) {
        throw new DomainError('INVALID_SIGNATURE', 'signature does not match the request');
      }
      // Optional (absent: the interface as it was). Present, even empty, it must match: it ties the
      // signature to this method and target, so a captured one cannot be replayed onto another request.
      const requestSignature = req.get('x-service-request-signature');
      if (
        requestSignature !== undefined &&
        !requestSignatureMatches(
          key.secret,
          timestamp,
          req.method,
          requestTargetOf(req.originalUrl),
          body,
          requestSignature,
        )
      ) {
        throw new DomainError(
          'INVALID_SIGNATURE',
          'X-Service-Request-Signature does not match the method, target and body of the request',
        );
      }
      if (key.merchantStatus !== 'ACTIVE')
        throw new DomainError('MERCHANT_DISABLED', 'this merchant account is disabled');
      if (req.method !== 'GET' && !(await deps.replayGuard.firstUse(apiKey, signature))) {
        throw requestReplayed();
      }
      setMerchantContext(res, { merchantId: key.merchantId });
      // For the routes that change money: they keep its hash, which outlives the replay guard's Redis.
      setSignedRequest(res, { apiKey, signature });
      next();
    } catch (err) {
      const retryAfterS =
        err instanceof DomainError && ERROR_STATUS[err.code] === 401 ? await deps.authFailures.failed(client()) : null;
      next(retryAfterS === null ? err : tooManyFailures(res, retryAfterS));
    }
  };
}
