import path from 'node:path';
import { Joi } from '@mm/config';

const ms = () => Joi.number().integer().min(0);

/**
 * The settings the simulator and the contract mocks both read, under the same names, so that one value
 * (`pnpm start`'s, a developer's) reaches both processes.
 */
export const fakeOperatorEnv = {
  SIM_OUTCOME_DELAY_MS: ms().default(2000),
  // Past the default 300 s confirmation timeout, so a 09 number lands on an EXPIRED transaction.
  SIM_LATE_CONFIRM_DELAY_MS: ms().default(330_000),
  // Unset (tests, containers): records in memory, each run starts with none. pnpm start sets a directory of the repository.
  OPERATOR_RECORDS_DIR: Joi.string().allow(''),
};

/** OPERATOR_RECORDS_DIR as a directory to open; null (unset or empty): records in memory only. */
export function recordsDirOf(value: string | undefined): string | null {
  return value ? path.resolve(value) : null;
}
