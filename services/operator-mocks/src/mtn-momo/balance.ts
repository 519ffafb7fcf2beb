import type { RecordKind } from '@mm/domain';
import type { Plants } from '@mm/fake-operator';
import { mtnError, type Answer } from './answer.js';
import type { MtnMockProduct, ResolvedMtnOptions } from './options.js';
import { mtnStatementLines } from './statement.js';
import type { MtnStore } from './store.js';

/** What moves each product's account: Collection takes the requests to pay, Disbursement pays the refunds and transfers. */
const MOVES: Readonly<Record<MtnMockProduct, Readonly<Partial<Record<RecordKind, 1 | -1>>>>> = {
  collection: { CASHIN: 1 },
  disbursement: { REFUND: -1, PAYOUT: -1 },
};

/** The currencies the account holds: EUR in the sandbox (as MTN's), the market's otherwise; the first is its own. */
export const accountCurrencies = (o: ResolvedMtnOptions): readonly string[] =>
  o.targetEnvironment === 'sandbox' ? ['EUR'] : o.currencies;

const money = (n: number) => String(Math.round(n * 100) / 100);

/**
 * GET /{product}/v1_0/account/balance[/{currency}] (sparkplug/momoapi-node `getBalance`; MTN-Group's SDK
 * `getAccountBalance`, `getAccountBalanceInSpecificCurrency`): `{availableBalance, currency}`, the amount a string.
 * The balance is the opening one plus what MTN's books tell (planted differences included, as its status queries
 * tell them): the SUCCESSFUL movements of that product in that currency. Without a currency, the account's own;
 * one it does not hold is 500 INVALID_CURRENCY (the mock's choice: MTN's code for a currency it does not take).
 */
export function accountBalance(
  o: ResolvedMtnOptions,
  store: MtnStore,
  plants: Plants,
  product: MtnMockProduct,
  asked: string | undefined,
): Answer {
  const currencies = accountCurrencies(o);
  const currency = asked ?? currencies[0]!;
  if (!currencies.includes(currency))
    return mtnError(500, 'INVALID_CURRENCY', 'Currency not supported on the requested account');
  let balance = o.openingBalances[product];
  for (const line of plants.apply(mtnStatementLines(store.all()))) {
    const sign = MOVES[product][line.kind];
    if (sign && line.status === 'SUCCESS' && line.currency === currency) balance += sign * line.amount;
  }
  return { status: 200, body: { availableBalance: money(balance), currency } };
}
