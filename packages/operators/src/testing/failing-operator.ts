import type { OperatorAdapter } from '../operator-adapter.js';

/**
 * The adapter interface's fake for tests: every call to the operator throws `error` (an
 * OperatorRefusedError, an OperatorUnavailableError, a bug of ours), for the paths the simulator does
 * not produce on demand. Override a method to script one answer: `{ ...failingOperator(e), queryStatus }`.
 */
export function failingOperator(error: Error): OperatorAdapter {
  const fail = async () => {
    throw error;
  };
  return {
    name: 'failing',
    pushUssd: fail,
    queryStatus: fail,
    refund: fail,
    disburse: fail,
    parseCallback: () => null,
  };
}
