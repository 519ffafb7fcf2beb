import { Router } from 'express';
import { balancesOf, type Db } from '@mm/db';
import { merchantContext } from '../http/request-context.js';

export function balancesRouter(deps: { db: Db }): Router {
  const router = Router();
  router.get('/balances', async (_req, res) => {
    const rows = await balancesOf(deps.db, merchantContext(res).merchantId);
    res.json({
      data: rows.map((r) => ({
        country_code: r.countryCode,
        country_name: r.countryName,
        currency: r.currency,
        available_balance: Number(r.available),
        pending_balance: Number(r.pending),
        updated_at: r.updatedAt.toISOString(),
      })),
    });
  });
  return router;
}
