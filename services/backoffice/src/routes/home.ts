/**
 * `/`: any logged-in staff member (app.ts puts requireLogin in front of every area): the day at a glance.
 * Each block is the summary of one page and is read and shown only when the role may open that page,
 * so the home page never tells more than the pages themselves would.
 */
import express, { type Router } from 'express';
import type { Db } from '@mm/db';
import { listOperatorAccounts } from '@mm/db/operator-accounts';
import { countParkedJobs } from '@mm/db/outbox';
import { cashinDaySummary, cashinTotalsBy, countAwaitingCashouts, utcDayOf } from '@mm/db/payments';
import { openCaseTotals } from '@mm/db/reconciliation';
import { currentStaff } from '../http/locals.js';
import { homeView, type HomeData } from '../views/home.js';
import { navFor } from '../views/nav.js';
import { renderPage } from '../views/render.js';

export interface HomeRouterDeps {
  db: Db;
  now(): number;
}

/** The nav ids (views/nav.ts) of the pages the home page summarises: their permission is the block's. */
export type HomeBlock = 'transactions' | 'cashouts' | 'reconciliation' | 'parked-jobs' | 'operators';

/** The pages a role may open, as the nav decides it: one source for the links and the blocks. */
export function homeBlocksFor(role: string): ReadonlySet<string> {
  return new Set(navFor(role).map((item) => item.id));
}

/** Runs `read` only for a block the role may see, so a hidden block costs no query either. */
function ifShown<T>(shown: ReadonlySet<string>, block: HomeBlock, read: () => Promise<T>): Promise<T | undefined> {
  return shown.has(block) ? read() : Promise.resolve(undefined);
}

/** Everything the home page shows, read concurrently; a block the role may not see stays undefined. */
export async function homeReads(db: Db, shown: ReadonlySet<string>, at: Date): Promise<HomeData> {
  const [cashins, awaitingCashouts, openCases, parkedJobs, operatorsDown] = await Promise.all([
    ifShown(shown, 'transactions', () => cashinDaySummary(db, at)),
    ifShown(shown, 'cashouts', () => countAwaitingCashouts(db)),
    ifShown(shown, 'reconciliation', async () => (await openCaseTotals(db)).reduce((n, t) => n + t.open_cases, 0)),
    ifShown(shown, 'parked-jobs', async () => Object.values(await countParkedJobs(db)).reduce((n, c) => n + c, 0)),
    ifShown(shown, 'operators', async () => (await listOperatorAccounts(db)).filter((a) => a.markedDownAt !== null)),
  ]);
  return {
    day: utcDayOf(at).start.toISOString().slice(0, 10),
    cashins: cashins && {
      byOperator: cashinTotalsBy(cashins, 'operator'),
      byCountry: cashinTotalsBy(cashins, 'countryCode'),
    },
    awaitingCashouts,
    openCases,
    parkedJobs,
    operatorsDown,
  };
}

export function homeRouter({ db, now }: HomeRouterDeps): Router {
  const router = express.Router();
  router.get('/', async (req, res) => {
    const staff = currentStaff(res);
    const data = await homeReads(db, homeBlocksFor(staff.role), new Date(now()));
    renderPage(req, res, { title: 'Home', body: homeView(staff, data) });
  });
  return router;
}
