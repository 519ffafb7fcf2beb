export {
  demoMockAccounts,
  mockUrls,
  startOperatorMocks,
  type MockAccount,
  type MockUrls,
  type OperatorMocksOptions,
  type RunningOperatorMocks,
} from './operator-mocks.js';
export type { MockPaymentRecord, MockRecords, MockTransferRecord } from './records.js';
export { PROXY_NOT_FOUND_PAGE, WSO2_SEND_TIMEOUT, type OrangeFault } from './orange-shared/faults.js';
export { DEFAULT_MOCK_PORTS } from './mock-env.js';
