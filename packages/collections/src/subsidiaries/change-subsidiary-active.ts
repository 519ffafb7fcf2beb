import { lockSubsidiary, setSubsidiaryActive } from '@mm/db/merchants';
import { recordAudit } from '@mm/db/staff';
import type { AuditContext } from '../audit-context.js';
import type { DbDeps } from '../deps.js';
import type { ChangeOutcome } from '../change-outcome.js';

/**
 * Activates or deactivates a country subsidiary, with its audit row in the same transaction. The
 * gateway reads it per request: a deactivated country answers 422 COUNTRY_NOT_SUPPORTED to new payments.
 */
export async function changeSubsidiaryActive(
  { db }: DbDeps,
  context: AuditContext,
  input: { countryCode: string; active: boolean },
): Promise<ChangeOutcome> {
  return db.$transaction(async (tx) => {
    const subsidiary = await lockSubsidiary(tx, input.countryCode);
    if (!subsidiary) return 'not_found';
    if (subsidiary.active === input.active) return 'unchanged';
    await setSubsidiaryActive(tx, subsidiary.countryCode, input.active);
    await recordAudit(tx, {
      ...context,
      action: input.active ? 'subsidiary.activate' : 'subsidiary.deactivate',
      targetType: 'subsidiary',
      targetId: subsidiary.countryCode,
      before: { active: subsidiary.active },
      after: { active: input.active },
    });
    return 'changed';
  });
}
