/** `/`: the merchant's day at a glance; every role may see it (payments:read is everyone's). */
import express, { type Router } from 'express';
import type { Db } from '@mm/db';
import { balancesOf } from '@mm/db/ledger';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse } from '../http/locals.js';
import { t } from '../i18n/messages.js';
import { homeView } from '../views/home.js';
import { renderPage } from '../views/render.js';
import type { RouteRule } from './route-rules.js';

export const HOME_ROUTES: readonly RouteRule[] = [{ method: 'GET', path: '/', permission: 'payments:read' }];

export function homeRouter(deps: { db: Db }): Router {
  const router = express.Router();
  router.get('/', requirePermission('payments:read'), async (req, res) => {
    const user = currentUser(res);
    const locale = localeOfResponse(res);
    const balances = await balancesOf(deps.db, user.merchantId);
    renderPage(req, res, { title: t(locale).home, body: homeView(locale, { balances }) });
  });
  return router;
}
