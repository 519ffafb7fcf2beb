/**
 * `/operators`: every subsidiary's operator accounts, readable with merchants:read (every role, like
 * the subsidiaries; never a credential: the summaries carry only whether some are set). Every change
 * needs operators:manage (admin) and goes through changeOperatorAccount (@mm/db): one transaction with
 * its audit row. POSTs redirect (303); a refused value answers the error page (400, or 409 for a state
 * that does not allow it) and nothing is written.
 *
 * The Health column (everyone who reads the page): the last hour's cash-ins of each account by outcome,
 * from the database (every replica's), and its operator calls, scraped from the workers' /metrics
 * (operator-health.ts): since they started, and over the last minutes when an earlier scrape is kept.
 *
 * Credentials are write-only: the form is always empty, the POST redirects like the others, and no
 * page, log line or audit row ever holds a value (the audit row names the credentials set).
 */
import express, { type Request, type Response, type Router } from 'express';
import type { Db } from '@mm/db';
import {
  cashinOutcomesByAccount,
  changeOperatorAccount,
  listOperatorAccounts,
  type OperatorAccountChange,
  type OperatorAccountKey,
} from '@mm/db/operator-accounts';
import { listSubsidiaries } from '@mm/db/merchants';
import { type SecretBox } from '@mm/db';
import {
  can,
  isOperatorApiName,
  isOperatorCode,
  OPERATOR_API_NAMES,
  OPERATORS,
  parseDownReason,
  parseOperatorBaseUrl,
  parseOperatorCredentials,
  parseOperatorPrefixes,
  parseOperatorSettings,
  type DeploymentMode,
  type ParsedField,
} from '@mm/domain';
import { auditContext } from '../auth/audit-context.js';
import { requirePermission } from '../auth/guard.js';
import { csrfToken, formField, notFoundError, PageError } from '@mm/web';
import { currentStaff } from '../http/locals.js';
import type { OperatorCallHealthReader } from '../operator-health.js';
import { operatorListView } from '../views/operators.js';
import { renderPage } from '../views/render.js';

const NOTICES: Record<string, string> = {
  created: 'The account is created, disabled: set its base URL, credentials and prefixes, then enable it.',
  enabled: 'The account is enabled: payments are routed to it.',
  disabled: 'The account is disabled: new payments for it answer 503.',
  down: 'The account is marked down: new payments for it answer 503 until it is marked up.',
  up: 'The account is marked up: payments are routed to it again.',
  prefixes: 'The prefixes are saved.',
  config: 'The base URL and settings are saved.',
  credentials: 'Credentials set. They are not shown back.',
  unchanged: 'Nothing changed: it already was so.',
};

type Params = { countryCode: string; operator: string };

function accountKey(req: Request<Params>): OperatorAccountKey {
  const { countryCode, operator } = req.params;
  if (!/^[A-Z]{2}$/.test(countryCode) || !/^[A-Z][A-Z0-9_]{1,31}$/.test(operator)) throw notFoundError();
  return { countryCode, operator };
}

function accepted<T>(parsed: ParsedField<T>): T {
  if (!parsed.ok) throw new PageError(400, parsed.error);
  return parsed.value;
}

/** The database's window of the Health column. */
export const CASHIN_HEALTH_WINDOW_MS = 3_600_000;

export interface OperatorsRouterDeps {
  db: Db;
  box: SecretBox;
  /** DEPLOYMENT_MODE: what an account may be set to here (changeOperatorAccount refuses the rest). */
  deploymentMode: DeploymentMode;
  operatorCalls: OperatorCallHealthReader;
  now(): number;
}

export function operatorsRouter({ db, box, deploymentMode, operatorCalls, now }: OperatorsRouterDeps): Router {
  const router = express.Router();
  router.use(requirePermission('merchants:read'));

  router.get('/', async (req, res) => {
    const notice = typeof req.query.done === 'string' ? NOTICES[req.query.done] : undefined;
    const [accounts, subsidiaries, cashins, calls] = await Promise.all([
      listOperatorAccounts(db),
      listSubsidiaries(db),
      cashinOutcomesByAccount(db, new Date(now() - CASHIN_HEALTH_WINDOW_MS)),
      operatorCalls.read(),
    ]);
    renderPage(req, res, {
      title: 'Operators',
      body: operatorListView({
        accounts,
        subsidiaries,
        health: { cashins: new Map(cashins.map((c) => [`${c.countryCode}:${c.operator}`, c])), calls },
        canManage: can(currentStaff(res).role, 'operators:manage'),
        csrfToken: csrfToken(req),
        notice,
      }),
    });
  });

  async function apply(
    req: Request,
    res: Response,
    key: OperatorAccountKey,
    change: OperatorAccountChange,
    done: string,
  ): Promise<void> {
    const outcome = await changeOperatorAccount(db, box, deploymentMode, auditContext(req, res), key, change);
    if (outcome === 'not_found') throw notFoundError();
    if (typeof outcome === 'object') throw new PageError(409, outcome.error);
    res.redirect(303, `/operators?done=${outcome === 'changed' ? done : 'unchanged'}`);
  }

  router.post('/', requirePermission('operators:manage'), async (req, res) => {
    const countryCode = formField(req, 'country');
    const operator = formField(req, 'operator');
    const api = formField(req, 'api');
    if (!/^[A-Z]{2}$/.test(countryCode)) throw new PageError(400, 'Choose the country of a subsidiary.');
    if (!isOperatorCode(operator)) throw new PageError(400, `Choose an operator: ${OPERATORS.join(', ')}.`);
    if (!isOperatorApiName(api)) throw new PageError(400, `Choose an API: ${OPERATOR_API_NAMES.join(', ')}.`);
    await apply(req, res, { countryCode, operator }, { kind: 'create', fields: { api } }, 'created');
  });

  for (const action of ['enable', 'disable'] as const) {
    router.post(
      `/:countryCode/:operator/${action}`,
      requirePermission('operators:manage'),
      async (req: Request<Params>, res) => {
        await apply(
          req,
          res,
          accountKey(req),
          { kind: 'update', fields: { enabled: action === 'enable' } },
          `${action}d`,
        );
      },
    );
  }

  router.post(
    '/:countryCode/:operator/down',
    requirePermission('operators:manage'),
    async (req: Request<Params>, res) => {
      const key = accountKey(req);
      await apply(req, res, key, { kind: 'down', reason: accepted(parseDownReason(formField(req, 'reason'))) }, 'down');
    },
  );

  router.post(
    '/:countryCode/:operator/up',
    requirePermission('operators:manage'),
    async (req: Request<Params>, res) => {
      await apply(req, res, accountKey(req), { kind: 'up' }, 'up');
    },
  );

  router.post(
    '/:countryCode/:operator/prefixes',
    requirePermission('operators:manage'),
    async (req: Request<Params>, res) => {
      const key = accountKey(req);
      await apply(
        req,
        res,
        key,
        { kind: 'update', fields: { prefixes: accepted(parseOperatorPrefixes(formField(req, 'prefixes'))) } },
        'prefixes',
      );
    },
  );

  router.post(
    '/:countryCode/:operator/config',
    requirePermission('operators:manage'),
    async (req: Request<Params>, res) => {
      const key = accountKey(req);
      // Both checked before anything is written: a bad settings field leaves the base URL as it was too.
      const baseUrl = accepted(parseOperatorBaseUrl(formField(req, 'base_url')));
      const settings = accepted(parseOperatorSettings(formField(req, 'settings')));
      await apply(req, res, key, { kind: 'update', fields: { baseUrl, settings } }, 'config');
    },
  );

  router.post(
    '/:countryCode/:operator/credentials',
    requirePermission('operators:manage'),
    async (req: Request<Params>, res) => {
      const key = accountKey(req);
      await apply(
        req,
        res,
        key,
        { kind: 'credentials', credentials: accepted(parseOperatorCredentials(formField(req, 'credentials'))) },
        'credentials',
      );
    },
  );

  return router;
}
