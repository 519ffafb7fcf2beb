import { listOperatorAccounts } from '@mm/db/operator-accounts';
import type { Db } from '@mm/db';
import type { RoutableAccount } from '@mm/domain';

/** A subsidiary's operator accounts as the routing rule (routeOperator) reads them. */
export async function routableAccounts(db: Db, countryCode: string): Promise<RoutableAccount[]> {
  return (await listOperatorAccounts(db, countryCode)).map((a) => ({
    operator: a.operator,
    enabled: a.enabled,
    down: a.markedDownAt !== null,
    prefixes: a.prefixes,
    simulated: a.api === 'simulator',
  }));
}
