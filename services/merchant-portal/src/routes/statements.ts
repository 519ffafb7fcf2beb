/**
 * `/statements` (statements:read): the export form and the monthly statement of a month (default: last month)
 * per subsidiary, from the ledger (monthlyStatement); `/statements/export`: the merchant's transactions of a
 * range, streamed from a database cursor as GET /v1/transactions/export streams them, with the same document
 * (@mm/collections' ExportBody and layouts: the same rows give the same bytes). Reads only: nothing is audited.
 */
import { pipeline } from 'node:stream';
import express, { type Request, type Response, type Router } from 'express';
import { csvLayout, ExportBody, jsonLayout } from '@mm/collections';
import type { Db } from '@mm/db';
import { monthlyStatement } from '@mm/db/ledger';
import { streamTransactionExport, type ExportConnections } from '@mm/db/payments';
import type { Logger } from '@mm/observability';
import { currentUser, requirePermission } from '../auth/guard.js';
import { localeOfResponse, requestIdOf } from '../http/locals.js';
import { statementsText } from '../i18n/statements.js';
import { renderPage } from '../views/render.js';
import { statementsView } from '../views/statements.js';
import type { RouteRule } from './route-rules.js';
import { lastMonth, parseExportForm, parseMonth, type ExportForm } from './statements-forms.js';

export const STATEMENTS_ROUTES: readonly RouteRule[] = [
  { method: 'GET', path: '/statements', permission: 'statements:read' },
  { method: 'GET', path: '/statements/export', permission: 'statements:read' },
];

export interface StatementsRouterDeps {
  db: Db;
  /** The export's connections: each download holds one for as long as it lasts (not the Prisma pool's). */
  exportPool: ExportConnections;
  logger: Logger;
  now(): number;
}

export function statementsRouter(deps: StatementsRouterDeps): Router {
  const router = express.Router();

  /** The page: the export form (with its errors, 400, when the download was refused) and the month's statement. */
  const page = async (req: Request, res: Response, exportForm: ExportForm | null, exportErrors: string[] = []) => {
    const user = currentUser(res);
    const locale = localeOfResponse(res);
    const m = statementsText(locale);
    const now = new Date(deps.now());
    const month = parseMonth(exportForm ? {} : req.query, now, m);
    const rows = month.month ? await monthlyStatement(deps.db, user.merchantId, month.month) : null;
    // By default the export form offers last month, the statement's month.
    const shown = statementMonthDays(lastMonth(now));
    renderPage(req, res, {
      status: exportErrors.length > 0 || month.error ? 400 : 200,
      title: m.title,
      body: statementsView(locale, m, {
        exportForm: exportForm ?? { from: shown.first, to: shown.last, format: 'csv' },
        exportErrors,
        month: month.value,
        monthError: month.error,
        statement: rows && month.month ? { rows, underWay: month.month.end.getTime() > now.getTime() } : null,
      }),
    });
  };

  router.get('/statements', requirePermission('statements:read'), async (req, res) => {
    await page(req, res, null);
  });

  router.get('/statements/export', requirePermission('statements:read'), async (req, res, next) => {
    const user = currentUser(res);
    const parsed = parseExportForm(req.query, statementsText(localeOfResponse(res)));
    if (!parsed.range) return page(req, res, parsed.form, parsed.errors);
    const { dateFrom, dateTo, from, until, format } = parsed.range;

    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('Content-Type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8');
    // A download in both formats (the API shows JSON inline; a browser should save it).
    res.setHeader('Content-Disposition', `attachment; filename="transactions_${dateFrom}_${dateTo}.${format}"`);
    const rows = streamTransactionExport(deps.exportPool, { merchantId: user.merchantId, from, until });
    const body = new ExportBody(format === 'csv' ? csvLayout() : jsonLayout({ date_from: dateFrom, date_to: dateTo }));
    let clientGone = false;
    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      rows.destroy();
    });
    // As the API's export (services/gateway transactions-export.ts): an error before the first byte is an
    // error page; after it, the response is cut, so that a failed download never looks complete.
    pipeline(rows, body, (err) => {
      if (!err) return;
      const log = deps.logger.child({ request_id: requestIdOf(res), path: req.path });
      if (clientGone) log.info({ rows: body.rows }, 'statement export abandoned by the client');
      else if (res.headersSent) {
        log.error({ err, rows: body.rows }, 'statement export failed after the response started; response destroyed');
        res.destroy();
      } else {
        res.removeHeader('Content-Disposition');
        res.removeHeader('Content-Type');
        next(err);
      }
    });
    body.pipe(res);
  });

  return router;
}

/** The first and last day (YYYY-MM-DD) of a `YYYY-MM`. */
function statementMonthDays(month: string): { first: string; last: string } {
  const [y, mo] = month.split('-').map(Number) as [number, number];
  return {
    first: `${month}-01`,
    last: new Date(Date.UTC(y, mo, 0)).toISOString().slice(0, 10),
  };
}
