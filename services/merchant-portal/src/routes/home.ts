/**
 * `/`: the merchant's day at a glance, every role may see it (payments:read is everyone's): the balances, and
 * the last 30 UTC days of cash-ins (merchantActivity) as server-drawn charts with their figures in tables.
 */
import express, { type Router } from 'express';
import type { Db } from '@mm/db';
import { balancesOf } from '@mm/db/ledger';
import { merchantActivity } from '@mm/db/payments';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse } from '../http/locals.js';
import { t } from '../i18n/messages.js';
import { homeView } from '../views/home.js';
import { renderPage } from '../views/render.js';
import type { RouteRule } from './route-rules.js';

export const HOME_ROUTES: readonly RouteRule[] = [{ method: 'GET', path: '/', permission: 'payments:read' }];

export function homeRouter(deps: { db: Db; now(): number }): Router {
  const router = express.Router();
  router.get('/', requirePermission('payments:read'), async (req, res) => {
    const user = currentUser(res);
    const locale = localeOfResponse(res);
    const [balances, activity] = await Promise.all([
      balancesOf(deps.db, user.merchantId),
      merchantActivity(deps.db, user.merchantId, new Date(deps.now())),
    ]);
    renderPage(req, res, { title: t(locale).home, body: homeView(locale, { balances, activity }) });
  });
  return router;
}
