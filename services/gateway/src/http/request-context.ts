/**
 * Typed access to what the middlewares put on res.locals (Express types it as `any`): the merchant a
 * request was authenticated as and the key and signature it came with, its parsed JSON body, the
 * transaction it concerns and its request id.
 */
import type { Response } from 'express';

export interface MerchantContext {
  merchantId: string;
}

export function setMerchantContext(res: Response, merchant: MerchantContext): void {
  res.locals.merchant = merchant;
}

/** The authenticated merchant; only behind authenticate(), where one is guaranteed. */
export function merchantContext(res: Response): MerchantContext {
  const merchant = res.locals.merchant as MerchantContext | undefined;
  // A route mounted outside authenticate() must fail loudly, never read or write as no one in particular.
  if (!merchant) throw new Error('merchantContext() used on a route outside authenticate()');
  return merchant;
}

/** The API key and signature a request was authenticated with: what the replay guard remembers of it. */
export interface SignedRequest {
  apiKey: string;
  signature: string;
}

export function setSignedRequest(res: Response, signed: SignedRequest): void {
  res.locals.signedRequest = signed;
}

/** Only behind authenticate(), where every request is signed. */
export function signedRequestOf(res: Response): SignedRequest {
  const signed = res.locals.signedRequest as SignedRequest | undefined;
  if (!signed) throw new Error('signedRequestOf() used on a route outside authenticate()');
  return signed;
}

export function setJsonBody(res: Response, body: unknown): void {
  res.locals.body = body;
}

/** The body jsonBody() parsed; unknown until a schema has validated it. */
export function jsonBodyOf(res: Response): unknown {
  return res.locals.body;
}

/** The access log of @mm/observability reads it under this name, so a request can be followed into the transaction. */
export function setTransactionId(res: Response, transactionId: string): void {
  res.locals.transactionId = transactionId;
}

/** Set by @mm/observability's requestId middleware, first in the chain. */
export function requestIdOf(res: Response): string {
  return res.locals.requestId as string;
}
