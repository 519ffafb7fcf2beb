export {
  OperatorRefusedError,
  OperatorUnavailableError,
  type OperatorAdapter,
  type VerifiedCallback,
  type UssdPushAck,
  type UssdPushRequest,
  type RefundRequest,
  type RefundResult,
  type DisbursementRequest,
  type DisbursementResult,
} from './operator-adapter.js';
export { SimulatorOperatorAdapter, type SimulatorAdapterConfig } from './simulator/client.js';
export {
  createAccountAdapter,
  isOperatorApi,
  operatorAdapterFromEnv,
  simulatorConfigFromEnv,
  OPERATOR_APIS,
  type AccountConfig,
  type OperatorApi,
  type OperatorSettings,
} from './registry.js';
export { instrumentAdapter } from './instrumented-adapter.js';
export { operatorRefusals } from './refusal-metric.js';
export {
  OperatorPendingError,
  NoOperatorRecordError,
  type MovementLookup,
  type OperatorRecordsPage,
  type PaymentLookup,
  type CustomerAction,
  type CallbackHint,
} from './operator-adapter.js';
export { paymentLookupOf, type StoredPayment } from './payment-lookup.js';
export { AccessTokenCache, withAccessToken, type IssuedToken } from './auth/access-token-cache.js';
export {
  OperatorDirectory,
  type AccountKey,
  type AccountRecord,
  type OperatorAdapters,
  type OperatorDirectoryOptions,
} from './directory/operator-directory.js';
export { WaveOperatorAdapter, WAVE_API_KEY_FORM, type WaveAdapterConfig } from './wave/client.js';
export { PAYMENT_ERRORS as WAVE_PAYMENT_ERRORS } from './wave/mapping.js';
export { OrangeWebpayAdapter, type OrangeWebpayConfig } from './orange-webpay/client.js';
export { OrangeMpAdapter, type OrangeMpConfig } from './orange-mp/client.js';
export { MtnMomoAdapter, type MtnMomoAdapterConfig } from './mtn-momo/client.js';
export { mtnReferenceId } from './mtn-momo/reference-id.js';
export {
  OperatorBreaker,
  breakerOutcomeOf,
  probeLookup,
  type BreakerOutcome,
  type BreakerStore,
  type OperatorBreakerOptions,
} from './breaker/operator-breaker.js';
export { NOT_FOUND_AT_OPERATOR } from './operator-adapter.js';
