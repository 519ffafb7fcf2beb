/**
 * `/transactions` (transactions:read): the search (a GET form; invalid filters give a message and no
 * query) and `/transactions/:id`, every field with the timeline and the webhook events.
 */
import express, { type Router } from 'express';
import type { Db } from '@mm/db';
import { searchTransactions, transactionTimeline } from '@mm/db/payments';
import { can } from '@mm/domain';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, notFoundError, isUuid } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import { renderPage } from '../views/render.js';
import { transactionDetailView } from '../views/transaction-detail.js';
import { transactionsView } from '../views/transactions.js';
import { parseTransactionFilters } from './transaction-filters.js';
import { noticeFromQuery } from './webhooks.js';

const PAGE_SIZE = 50;

/** Where a search runs: the read replica while it is usable, the primary otherwise (service.ts). */
export type SearchReads = <T>(work: (db: Db) => Promise<T>) => Promise<T>;

/**
 * The search (the list) may read the replica: a page of results a few seconds old is fine there. The
 * detail page reads the primary: staff act from it (re-send a webhook, decide a cash-out).
 */
export function transactionsRouter({ db, searches }: { db: Db; searches: SearchReads }): Router {
  const router = express.Router();
  router.use(requirePermission('transactions:read'));

  router.get('/', async (req, res) => {
    const filters = parseTransactionFilters(req.query);
    const [merchants, countries, page] = await Promise.all([
      db.merchant.findMany({ select: { id: true, name: true }, orderBy: { name: 'asc' } }),
      db.subsidiary.findMany({ select: { countryCode: true, countryName: true }, orderBy: { countryCode: 'asc' } }),
      // No filter at all is a valid search: the newest transactions.
      filters.errors.length === 0
        ? searches((on) => searchTransactions(on, filters.search, { limit: PAGE_SIZE, after: filters.after }))
        : null,
    ]);
    renderPage(req, res, {
      status: filters.errors.length > 0 ? 400 : 200,
      title: 'Transactions',
      body: transactionsView({ filters, merchants, countries, page }),
    });
  });

  router.get('/:id', async (req, res) => {
    const id = req.params.id;
    const history = isUuid(id) ? await transactionTimeline(db, id.toLowerCase()) : null;
    if (!history) throw notFoundError();
    renderPage(req, res, {
      title: `Transaction ${history.transaction.merchantOrderId}`,
      body: transactionDetailView({
        history,
        canResend: can(currentStaff(res).role, 'webhooks:resend'),
        csrfToken: csrfToken(req),
        notice: noticeFromQuery(req.query),
      }),
    });
  });

  return router;
}
