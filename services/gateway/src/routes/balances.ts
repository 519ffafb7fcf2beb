import { Router } from 'express';
import type { Db } from '@mm/db';
import { balancesOf } from '@mm/db/ledger';
import { merchantContext } from '../http/request-context.js';
import { presentBalance } from '../presenters/balance-presenter.js';

export function balancesRouter(deps: { db: Db }): Router {
  const router = Router();
  router.get('/balances', async (_req, res) => {
    const rows = await balancesOf(deps.db, merchantContext(res).merchantId);
    res.json({ data: rows.map(presentBalance) });
  });
  return router;
}
