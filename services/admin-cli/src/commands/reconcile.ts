/**
 * `reconcile`, `reconcile:import` and `reconcile:report`: reconciliation with the operators from the command
 * line (docs/reconciliation.md), in this process: the account's adapter is built here as the services build
 * it (the operator directory: the settings' simulator for a SIMULATOR account without a base URL or
 * credentials of its own, else the account's row, its credentials opened with MASTER_KEY). There is no
 * Redis here: the jobs a late success writes (the merchant's webhook, the customer's refund) are published
 * by the consumers' outbox relays after their grace period.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { recordAudit } from '@mm/db/staff';
import type { Db } from '@mm/db';
import { dayReport, saveOperatorRecords, type DayReport, type DaySummary } from '@mm/db/reconciliation';
import { findOperatorAccount, listOperatorAccounts, loadOperatorAccount } from '@mm/db/operator-accounts';
import { SecretBox } from '@mm/db';
import { currencyForCountry, MATCH_CATEGORIES, type MatchCategory } from '@mm/domain';
import { OperatorDirectory, simulatorConfigFromEnv, type AccountKey, type OperatorAdapter } from '@mm/operators';
import { dayReportCsv, parseStatement, reconcileDay } from '@mm/reconciliation';
import type { AdminEnv } from '../env.js';

/** A statement's bad lines printed at most: the rest are counted. */
const ERRORS_SHOWN = 50;

/** `--date`: a real day (YYYY-MM-DD), not after today (UTC). */
export function parseDay(value: string, today = new Date()): string {
  const date = value.trim();
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw new Error(`--date must be a day as YYYY-MM-DD (UTC), not "${value}"`);
  }
  if (date > today.toISOString().slice(0, 10)) throw new Error(`--date ${date} has not begun yet (UTC)`);
  return date;
}

export function parseCountry(value: string): string {
  const country = value.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(country)) throw new Error(`--country must be a 2-letter country code, not "${value}"`);
  return country;
}

export function parseOperatorName(value: string): string {
  const operator = value.trim().toUpperCase();
  if (!/^[A-Z][A-Z0-9_]{1,31}$/.test(operator))
    throw new Error(`--operator must be an operator's name such as MTN, ORANGE, WAVE or SIMULATOR, not "${value}"`);
  return operator;
}

/**
 * The adapters of the operator accounts, built as the services' directory builds them. A SIMULATOR account
 * of the settings needs OPERATOR_API_TOKEN and OPERATOR_CALLBACK_SECRET (defaults outside production only).
 */
function accountAdapters(db: Db, env: AdminEnv): (key: AccountKey) => Promise<OperatorAdapter> {
  const box = new SecretBox(env.MASTER_KEY);
  const directory = new OperatorDirectory({
    load: async ({ countryCode, operator }) => {
      const account = await loadOperatorAccount(db, box, countryCode, operator).catch((err: Error) => {
        throw new Error(
          `the credentials of operator account ${countryCode} ${operator} cannot be opened with this MASTER_KEY (${err.message})`,
        );
      });
      if (!account) throw new Error(`no operator account ${countryCode} ${operator} (operator:list shows them)`);
      if (
        account.api === 'simulator' &&
        account.baseUrl === null &&
        account.credentials === null &&
        (!env.OPERATOR_API_TOKEN || !env.OPERATOR_CALLBACK_SECRET)
      ) {
        throw new Error(
          `operator account ${countryCode} ${operator} is the simulator of the settings: set OPERATOR_API_TOKEN and OPERATOR_CALLBACK_SECRET (and OPERATOR_BASE_URL) as for the services`,
        );
      }
      return {
        countryCode,
        operator,
        api: account.api,
        baseUrl: account.baseUrl,
        credentials: account.credentials,
        settings: account.settings,
      };
    },
    changes: { generation: 0, listening: true },
    ttlMs: 0,
    // Unset token or secret (production): refused by `load` above before this is used.
    simulator: simulatorConfigFromEnv({
      ...env,
      OPERATOR_API_TOKEN: env.OPERATOR_API_TOKEN ?? '',
      OPERATOR_CALLBACK_SECRET: env.OPERATOR_CALLBACK_SECRET ?? '',
    }),
    timeoutMs: env.OPERATOR_TIMEOUT_MS,
    mode: env.DEPLOYMENT_MODE,
  });
  return (key) => directory.adapterFor(key);
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err));

/** One account's day as the commands print it: the summary, with the currency of its amounts. */
type CountrySummary = DaySummary & { currency: string | null };

interface CategoryAcrossCountries {
  count: number;
  /** Amounts per currency: the countries of one operator may not share one (XOF, XAF). */
  amounts: Record<string, number>;
}

/** What `reconcile --json` prints (its last line). */
export interface ReconcileOutput {
  operator: string;
  date: string;
  /** The country asked for; null: every enabled account of the operator. */
  country_code: string | null;
  matched: number;
  by_category: Record<MatchCategory, CategoryAcrossCountries>;
  open_cases: number;
  resolved_automatically: number;
  countries: CountrySummary[];
  /** The accounts whose day could not be reconciled (the command then exits 1). */
  errors: { country_code: string; error: string }[];
}

function aggregate(
  operator: string,
  date: string,
  country: string | null,
  countries: CountrySummary[],
  errors: ReconcileOutput['errors'],
): ReconcileOutput {
  const byCategory = Object.fromEntries(MATCH_CATEGORIES.map((c) => [c, { count: 0, amounts: {} }])) as Record<
    MatchCategory,
    CategoryAcrossCountries
  >;
  for (const s of countries) {
    for (const c of MATCH_CATEGORIES) {
      const t = s.by_category[c];
      byCategory[c].count += t.count;
      const currency = s.currency ?? '?';
      byCategory[c].amounts[currency] = (byCategory[c].amounts[currency] ?? 0) + t.amount;
    }
  }
  return {
    operator,
    date,
    country_code: country,
    matched: countries.reduce((n, s) => n + s.matched, 0),
    by_category: byCategory,
    open_cases: countries.reduce((n, s) => n + s.open_cases, 0),
    resolved_automatically: countries.reduce((n, s) => n + s.resolved_automatically, 0),
    countries,
    errors,
  };
}

function summaryLine(s: CountrySummary): string {
  const differences = MATCH_CATEGORIES.filter((c) => c !== 'MATCHED' && s.by_category[c].count > 0).map((c) =>
    `${s.by_category[c].count} ${c.toLowerCase().replace(/_/g, ' ')} (${s.by_category[c].amount} ${s.currency ?? ''})`.replace(
      ' )',
      ')',
    ),
  );
  const sources =
    s.sources.length > 0 ? s.sources.join(', ') : 'none: no record from the operator, no statement imported';
  return (
    `${s.country_code} ${s.operator} ${s.date}: ${s.matched} matched${differences.length ? `, ${differences.join(', ')}` : ''}; ` +
    `${s.open_cases} open case(s)${s.resolved_automatically ? `, ${s.resolved_automatically} resolved automatically` : ''} (operator records: ${sources})`
  );
}

function openCasesAdvice(openCases: number, date: string, operator: string): string {
  return openCases > 0
    ? `${openCases} open case(s) wait for a person: back-office reconciliation cases, or pnpm --silent admin reconcile:report --date ${date} --operator ${operator}`
    : 'no open case';
}

/**
 * Reconciles one day of each enabled account of the operator (or of the one country asked for, enabled or
 * not), as the bridge's daily job does. An account that fails does not stop the others; `failed` says so.
 */
export async function reconcile(
  db: Db,
  env: AdminEnv,
  o: { operator: string; date: string; country: string | null },
): Promise<{ output: ReconcileOutput; text: string; failed: boolean }> {
  let keys: AccountKey[];
  if (o.country) {
    const account = await findOperatorAccount(db, o.country, o.operator);
    if (!account) throw new Error(`no operator account ${o.country} ${o.operator} (operator:list shows them)`);
    keys = [{ countryCode: o.country, operator: o.operator }];
  } else {
    keys = (await listOperatorAccounts(db))
      .filter((a) => a.enabled && a.operator === o.operator)
      .map((a) => ({ countryCode: a.countryCode, operator: a.operator }));
    if (keys.length === 0)
      throw new Error(
        `no enabled operator account for ${o.operator} (operator:list shows them; --country reconciles a disabled one)`,
      );
  }
  const adapterOf = accountAdapters(db, env);
  const countries: CountrySummary[] = [];
  const errors: ReconcileOutput['errors'] = [];
  for (const key of keys) {
    try {
      const adapter = await adapterOf(key);
      const summary = await reconcileDay({ db, adapter }, key, o.date);
      countries.push({ ...summary, currency: currencyForCountry(key.countryCode) ?? null });
    } catch (err) {
      errors.push({ country_code: key.countryCode, error: errorText(err) });
    }
  }
  const output = aggregate(o.operator, o.date, o.country, countries, errors);
  const text = [
    ...countries.map(summaryLine),
    ...errors.map((e) => `${e.country_code} ${o.operator} ${o.date}: NOT RECONCILED: ${e.error}`),
    `${o.operator} ${o.date}: ${output.matched} matched over ${countries.length} account(s); ${openCasesAdvice(output.open_cases, o.date, o.operator)}` +
      (errors.length ? `; ${errors.length} account(s) not reconciled` : ''),
  ].join('\n');
  return { output, text, failed: errors.length > 0 };
}

/** What `reconcile:import --json` prints (its last line). */
export interface ImportOutput {
  operator: string;
  country_code: string;
  file: string;
  /** Lines of the statement kept (operator_records, source STATEMENT); 0 when the file was refused. */
  records: number;
  /** Business days the statement covers, each reconciled again. */
  days: CountrySummary[];
  matched: number;
  open_cases: number;
  /** The statement's bad lines (the file was refused whole), or the days that could not be reconciled. */
  errors: { line?: number; date?: string; error: string }[];
}

/**
 * Imports an operator's statement (CSV, parseStatement of @mm/reconciliation) for one account: refused
 * whole, nothing written, when any line is bad; else kept as the operator's word (source STATEMENT) and
 * each business day it covers reconciled again. The operator is not read again here (its list would
 * replace the statement's word); only its status of a late success is asked, when the account's adapter
 * can be built, so that those resolve as they do in the daily run.
 */
export async function reconcileImport(
  db: Db,
  env: AdminEnv,
  o: { operator: string; country: string; file: string },
): Promise<{ output: ImportOutput; text: string; failed: boolean }> {
  const account = await findOperatorAccount(db, o.country, o.operator);
  if (!account) throw new Error(`no operator account ${o.country} ${o.operator} (operator:list shows them)`);
  let content: string;
  try {
    content = await readFile(o.file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read --file ${o.file}: ${errorText(err)}`);
  }
  const base = { operator: o.operator, country_code: o.country, file: o.file };
  const parsed = parseStatement(content);
  if (!parsed.ok) {
    const shown = parsed.errors.slice(0, ERRORS_SHOWN);
    const text = [
      `statement ${o.file} refused, nothing imported: ${parsed.errors.length} bad line(s)`,
      ...shown.map((e) => `  line ${e.line}: ${e.message}`),
      ...(parsed.errors.length > shown.length
        ? [`  ... and ${parsed.errors.length - shown.length} more bad line(s)`]
        : []),
    ].join('\n');
    return {
      output: {
        ...base,
        records: 0,
        days: [],
        matched: 0,
        open_cases: 0,
        errors: parsed.errors.map((e) => ({ line: e.line, error: e.message })),
      },
      text,
      failed: true,
    };
  }
  const key = { countryCode: o.country, operator: o.operator };
  const days = [...new Set(parsed.records.map((r) => r.businessDate))].sort();
  // The operator's word and who brought it, together: as the back-office's upload (reconciliation.import).
  await db.$transaction(async (tx) => {
    await saveOperatorRecords(tx, key, parsed.records, 'STATEMENT');
    await recordAudit(tx, {
      staffId: null,
      actor: 'admin-cli',
      action: 'reconciliation.import',
      targetType: 'operator_account',
      targetId: `${o.country}:${o.operator}`,
      after: {
        file: basename(o.file),
        sha256: createHash('sha256').update(content).digest('hex'),
        records: parsed.records.length,
        days,
      },
    });
  });
  let adapter: Pick<OperatorAdapter, 'queryStatus'> | null = null;
  let noAdapter: string | null = null;
  try {
    const built = await accountAdapters(db, env)(key);
    adapter = { queryStatus: (payment) => built.queryStatus(payment) };
  } catch (err) {
    noAdapter = errorText(err);
  }
  const summaries: CountrySummary[] = [];
  const errors: ImportOutput['errors'] = [];
  for (const date of days) {
    try {
      summaries.push({
        ...(await reconcileDay({ db, adapter }, key, date)),
        currency: currencyForCountry(o.country) ?? null,
      });
    } catch (err) {
      errors.push({ date, error: errorText(err) });
    }
  }
  const output: ImportOutput = {
    ...base,
    records: parsed.records.length,
    days: summaries,
    matched: summaries.reduce((n, s) => n + s.matched, 0),
    open_cases: summaries.reduce((n, s) => n + s.open_cases, 0),
    errors,
  };
  const text = [
    `imported ${parsed.records.length} record(s) of ${o.country} ${o.operator} from ${o.file}, covering ${days.length} day(s): ${days.join(', ')}`,
    ...(noAdapter
      ? [`the operator's status of late successes was not asked (${noAdapter}): they stay cases until the daily run`]
      : []),
    ...summaries.map(summaryLine),
    ...errors.map(
      (e) =>
        `${o.country} ${o.operator} ${e.date}: NOT RECONCILED: ${e.error} (the records are kept: run reconcile for that day again)`,
    ),
    openCasesAdvice(output.open_cases, days.at(-1) ?? '', o.operator),
  ].join('\n');
  return { output, text, failed: errors.length > 0 };
}

export type ReportFormat = 'text' | 'json' | 'csv';

/** The day's report (dayReport of @mm/db/reconciliation) as text, JSON (one line) or CSV (dayReportCsv). */
export async function reconcileReport(
  db: Db,
  o: { date: string; operator?: string; country?: string; format: ReportFormat },
): Promise<{ report: DayReport; output: string }> {
  const report = await dayReport(db, { date: o.date, operator: o.operator, countryCode: o.country });
  if (o.format === 'json') return { report, output: JSON.stringify(report) };
  // Its last CRLF is left to the line the CLI prints.
  if (o.format === 'csv') return { report, output: dayReportCsv(report).replace(/\r\n$/, '') };
  if (report.accounts.length === 0)
    return { report, output: `${o.date}: no operator account${o.operator ? ` for ${o.operator}` : ''}` };
  const lines: string[] = [];
  for (const a of report.accounts) {
    const run = a.run
      ? `reconciled ${a.run.finished_at} (${a.run.runs} run(s), operator records: ${a.run.sources.join(', ') || 'none'})`
      : 'NOT RECONCILED';
    lines.push(`${a.country_code} ${a.operator} ${report.date}: ${run}`);
    lines.push(
      `  ${MATCH_CATEGORIES.map((c) => `${c} ${a.by_category[c].count} (${a.by_category[c].amount})`).join(', ')}${a.currency ? ` ${a.currency}` : ''}`,
    );
    const resolved = Object.entries(a.resolved_cases)
      .map(([r, n]) => `${n} ${r}`)
      .join(', ');
    const unmatched = Object.entries(a.unmatched_amount)
      .map(([c, n]) => `${n} ${c}`)
      .join(', ');
    lines.push(
      `  open cases: ${a.open_cases}${unmatched ? ` (unmatched ${unmatched})` : ''}${resolved ? `; resolved: ${resolved}` : ''}`,
    );
    for (const c of a.cases)
      lines.push(`    ${c.id} ${c.kind} ${c.reference} ${c.category} difference ${c.difference} ${c.currency}`);
  }
  return { report, output: lines.join('\n') };
}
