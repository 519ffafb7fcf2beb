import { pipeline } from 'node:stream';
import { Router } from 'express';
import { streamTransactionExport, type ExportConnections } from '@mm/db/payments';
import { csvLayout, ExportBody, jsonLayout } from '@mm/collections';
import { parseExportQuery } from '../validation/export-query.js';
import type { Logger } from '@mm/observability';
import { merchantContext, requestIdOf } from '../http/request-context.js';

export interface TransactionsExportDeps {
  /** A pg pool of its own (each export holds a connection for the whole download), or the read replica's first. */
  pool: ExportConnections;
  logger: Logger;
}

/**
 * decisions 8: GET /transactions/export streams the merchant's transactions of a date range from a
 * database cursor, as JSON or CSV, so memory stays flat for millions of rows.
 *
 * The response is written with backpressure (the cursor reads the next batch only when the client
 * has taken the previous one). The database connection is released on completion, on error and
 * when the client goes away. A failure before the first byte is an ordinary error response; after
 * it, the response is destroyed so the client sees a truncated download, never a complete-looking one.
 */
export function transactionsExportRouter(deps: TransactionsExportDeps): Router {
  const router = Router();
  router.get('/transactions/export', (req, res, next) => {
    const q = parseExportQuery({ ...req.query });
    const meta = {
      date_from: q.date_from,
      date_to: q.date_to,
      ...(q.country_code ? { country_code: q.country_code } : {}),
    };

    res.setHeader('Cache-Control', 'no-store');
    if (q.format === 'csv') {
      res.setHeader('Content-Type', 'text/csv; charset=utf-8');
      res.setHeader('Content-Disposition', `attachment; filename="transactions_${q.date_from}_${q.date_to}.csv"`);
    } else {
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
    }
    if (req.method === 'HEAD') {
      res.end();
      return;
    }

    const rows = streamTransactionExport(deps.pool, {
      merchantId: merchantContext(res).merchantId,
      from: q.from,
      until: q.until,
      countryCode: q.country_code,
    });
    const body = new ExportBody(q.format === 'csv' ? csvLayout() : jsonLayout(meta));
    let clientGone = false;
    // The client went away (or the response was destroyed): stop reading, release the connection.
    res.on('close', () => {
      if (res.writableFinished) return;
      clientGone = true;
      rows.destroy();
    });
    pipeline(rows, body, (err) => {
      if (!err) return;
      // The request's fields as its access line has them, so that the two lines can be matched.
      const log = deps.logger.child({
        req: { id: requestIdOf(res), method: req.method, url: req.originalUrl },
        request_id: requestIdOf(res),
      });
      if (clientGone) {
        log.info({ rows: body.rows }, 'export abandoned by the client');
      } else if (res.headersSent) {
        log.error({ err, rows: body.rows }, 'export failed after the response started; response destroyed');
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
