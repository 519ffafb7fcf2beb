import { Router } from 'express';
import { DomainError } from '@mm/domain';
import { cashoutSchema } from '../validation/cashout-schema.js';
import { validate } from '../validation/validate.js';
import { resolvePayer } from '../use-cases/resolve-payer.js';

/**
 * decisions 7: authenticated and validated like any request, then 501 while no disbursement
 * capability is configured. Nothing is written and nothing is debited.
 */
export function cashoutRouter(deps: { isActiveCountry(c: string): Promise<boolean> }): Router {
  const router = Router();
  router.post('/payments/cashout', async (_req, res) => {
    const body = validate(cashoutSchema, res.locals.body) as { beneficiary_msisdn: string; currency?: string };
    await resolvePayer({ msisdn: body.beneficiary_msisdn, msisdnField: 'beneficiary_msisdn', currency: body.currency }, deps.isActiveCountry);
    // Even with DISBURSEMENT_ENABLED, the simulator adapter has no disbursement yet (issue 6).
    throw new DomainError('DISBURSEMENT_NOT_CONFIGURED', 'cash-out is not available: no disbursement capability is configured with the operator');
  });
  return router;
}
