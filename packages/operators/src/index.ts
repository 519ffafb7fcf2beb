export { OperatorRefusedError, OperatorUnavailableError, type OperatorAdapter, type VerifiedCallback, type UssdPushAck, type UssdPushRequest, type RefundRequest, type RefundResult, type DisbursementRequest, type DisbursementResult } from './operator-adapter.js';
export { SimulatorOperatorAdapter, type SimulatorAdapterConfig } from './simulator/client.js';
export { createAccountAdapter, isOperatorApi, operatorAdapterFromEnv, simulatorConfigFromEnv, OPERATOR_APIS, type AccountConfig, type OperatorApi, type OperatorSettings } from './registry.js';
export { instrumentAdapter } from './instrumented-adapter.js';
export { operatorRefusals } from './refusal-metric.js';
export { OperatorPendingError, type PaymentLookup, type CustomerAction, type CallbackHint } from './operator-adapter.js';
export { paymentLookupOf, type StoredPayment } from './payment-lookup.js';
export { AccessTokenCache, withAccessToken, type IssuedToken } from './auth/access-token-cache.js';
export { OperatorDirectory, type AccountKey, type AccountRecord, type OperatorAdapters, type OperatorDirectoryOptions } from './directory/operator-directory.js';
