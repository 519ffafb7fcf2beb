export { MobileMoneyClient, type ClientOptions } from './client.js';
export { verifyWebhook, type VerifyOptions, type WebhookHeaders } from './webhooks.js';
export { webhookMiddleware, type WebhookMiddlewareOptions, type WebhookRequest } from './webhook-middleware.js';
export { sign, signRequest, requestSigningText, REQUEST_SIGNATURE_HEADER } from './signature.js';
export {
  MobileMoneyError,
  ApiError,
  InvalidRequestError,
  AuthenticationError,
  MerchantDisabledError,
  NotFoundError,
  ConflictError,
  UnprocessableError,
  RateLimitError,
  NotConfiguredError,
  ServerError,
  ConnectionError,
  WebhookVerificationError,
  type WebhookRejection,
} from './errors.js';
export type * from './types.js';
export type { components, paths, operations, webhooks } from './generated/api.js';
