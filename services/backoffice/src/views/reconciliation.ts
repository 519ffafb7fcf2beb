import type { CaseCursor, CaseDetail, CaseSummary, RunCursor, RunSummary } from '@mm/db/reconciliation';
import type { TimelineItem } from '@mm/db/payments';
import {
  CASE_STATES,
  DIFFERENCE_CATEGORIES,
  encodeCaseCursor,
  encodeRunCursor,
  listQuery,
  type CaseFilterForm,
  type Parsed,
  type RunFilterForm,
} from '../routes/reconciliation-filters.js';
import type { ImportOutcome } from '@mm/collections';
import { amount, csrfField, orDash, when, html, raw, type SafeHtml } from '@mm/web';
import { timelineView } from './timeline.js';

/** An operator account, as the filters and the import form offer them. */
export interface AccountOption {
  countryCode: string;
  operator: string;
}

export const CATEGORY_LABELS: Record<string, string> = {
  MATCHED: 'Matched',
  STATUS_DIFFERS: 'Status differs',
  AMOUNT_DIFFERS: 'Amount differs',
  MISSING_AT_OPERATOR: 'Missing at the operator',
  UNKNOWN_TO_US: 'Unknown to us',
  PENDING: 'Pending',
};

const RESOLUTION_LABELS: Record<string, string> = {
  MATCHED_LATER: 'matched later',
  AUTOMATIC: 'resolved automatically',
  ACCEPTED: "operator's side accepted",
  WRITTEN_OFF: 'written off',
};

/** The three pages of the area, the current one marked. */
function tabs(current: 'days' | 'cases' | 'import', canResolve: boolean): SafeHtml {
  const tab = (id: typeof current, href: string, label: string) =>
    html`<a href="${href}" data-tab="${id}"${id === current ? raw(' aria-current="page"') : ''}>${id === current ? html`<strong>${label}</strong>` : label}</a>`;
  return html`<p id="reconciliation-tabs">${tab('days', '/reconciliation', 'Days reconciled')} · ${tab('cases', '/reconciliation/cases', 'Cases')}${
    canResolve ? html` · ${tab('import', '/reconciliation/import', "Import an operator's statement")}` : ''
  }</p>`;
}

/** A difference with its sign: + the operator holds more than our books say, − less. */
export function signedAmount(value: bigint | number, currency: string): string {
  const n = BigInt(value);
  return n > 0n ? `+${amount(n, currency)}` : n < 0n ? `−${amount(-n, currency)}` : amount(0, currency);
}

function select(
  id: string,
  name: string,
  label: string,
  current: string,
  options: { value: string; label: string }[],
  any: string | null = 'Any',
): SafeHtml {
  return html`<div><label for="${id}">${label}</label><select id="${id}" name="${name}">
${any === null ? '' : html`<option value="">${any}</option>`}
${options.map((o) => html`<option value="${o.value}"${o.value === current ? raw(' selected') : ''}>${o.label}</option>`)}
</select></div>`;
}

function accountSelects(
  prefix: string,
  form: { operator: string; country: string },
  accounts: AccountOption[],
): SafeHtml {
  const operators = [...new Set(accounts.map((a) => a.operator))].sort();
  const countries = [...new Set(accounts.map((a) => a.countryCode))].sort();
  return html`${select(
    `${prefix}-operator`,
    'operator',
    'Operator',
    form.operator,
    operators.map((o) => ({ value: o, label: o })),
  )}
${select(
  `${prefix}-country`,
  'country',
  'Country',
  form.country,
  countries.map((c) => ({ value: c, label: c })),
)}`;
}

function errorList(id: string, errors: string[]): SafeHtml | string {
  return errors.length > 0
    ? html`<div class="error" id="${id}" role="alert"><p>The list was not read:</p><ul>${errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
    : '';
}

// ---- Days reconciled ----

export interface RunsView {
  filters: Parsed<RunFilterForm, unknown>;
  accounts: AccountOption[];
  /** Null when the filters were refused. */
  page: { rows: RunSummary[]; next: RunCursor | null } | null;
  canResolve: boolean;
}

function categoryCell(run: RunSummary, category: string): SafeHtml {
  const t = run.totals[category as keyof RunSummary['totals']];
  if (!t || t.count === 0) return html`<td class="num" data-category="${category}">0</td>`;
  return html`<td class="num" data-category="${category}"><strong>${t.count}</strong><br><span class="muted">${amount(t.amount, '').trim()}</span></td>`;
}

/** The days reconciled, newest first: tr[data-run="CC:OPERATOR:YYYY-MM-DD"]. */
export function runsView(v: RunsView): SafeHtml {
  const f = v.filters.form;
  const form = html`<form method="get" action="/reconciliation" id="runs-filter" class="filters">
${accountSelects('r', f, v.accounts)}
<div><button type="submit">Filter</button> <a href="/reconciliation">Clear</a></div></form>`;
  return html`<h1>Reconciliation with the operators</h1>
${tabs('days', v.canResolve)}
<p class="muted">One row per operator account and business day (UTC): the last run's comparison of our books with the operator's records.
Counts per category, with the amount of the differences below them (the account's currency). Open cases: those found on that day still waiting for a person now, and when the run finished.</p>
${form}${errorList('runs-errors', v.filters.errors)}${v.page ? runsTable(v, v.page) : ''}`;
}

function runsTable(v: RunsView, page: NonNullable<RunsView['page']>): SafeHtml {
  if (page.rows.length === 0)
    return html`<p class="muted" id="no-runs">No day reconciled${v.filters.paged ? ' beyond this page' : ''}.</p>`;
  const rows = page.rows.map((r) => {
    const cases = `/reconciliation/cases?${listQuery({ state: 'open', operator: r.operator, country: r.countryCode, date: r.businessDate })}`;
    return html`<tr data-run="${r.countryCode}:${r.operator}:${r.businessDate}">
<td>${r.businessDate}</td><td>${r.operator}</td><td>${r.countryCode}</td>
<td class="num" data-category="MATCHED">${r.matched}</td>
${DIFFERENCE_CATEGORIES.map((c) => categoryCell(r, c))}
${categoryCell(r, 'PENDING')}
<td class="num" data-open-now="${r.openCasesNow}"><a href="${cases}">${r.openCasesNow}</a><br><span class="muted">${r.openCasesAtRun} at the run</span></td>
<td>${r.sources.length > 0 ? r.sources.join(', ') : html`<span class="muted">none</span>`}</td>
<td>${when(r.finishedAt)}${r.runs > 1 ? html`<br><span class="muted">${r.runs} runs</span>` : ''}</td></tr>`;
  });
  const older = page.next
    ? html`<a id="older-page" href="/reconciliation?${listQuery(v.filters.form, { after: encodeRunCursor(page.next) })}">Older →</a>`
    : html`<span class="muted">No older days.</span>`;
  const newest = v.filters.paged
    ? html`<a id="newest-page" href="/reconciliation?${listQuery(v.filters.form)}">← Newest</a> · `
    : '';
  return html`<table id="runs-table"><thead><tr><th>Day</th><th>Operator</th><th>Country</th><th>Matched</th>
${DIFFERENCE_CATEGORIES.map((c) => html`<th>${CATEGORY_LABELS[c]}</th>`)}<th>Pending</th><th>Open cases</th><th>Sources</th><th>Finished</th></tr></thead>
<tbody>${rows}</tbody></table>
<p class="pager">${newest}${older}</p>`;
}

// ---- Cases ----

export interface CasesView {
  filters: Parsed<CaseFilterForm, unknown>;
  accounts: AccountOption[];
  page: { rows: CaseSummary[]; next: CaseCursor | null } | null;
  canResolve: boolean;
}

function stateBadge(state: string, resolution: string | null): SafeHtml {
  if (state === 'OPEN') return html`<span class="badge off" data-state="OPEN">OPEN</span>`;
  return html`<span class="badge ok" data-state="${state}" data-resolution="${resolution ?? ''}">${resolution ? (RESOLUTION_LABELS[resolution] ?? resolution) : state}</span>`;
}

/** Cases, newest business day first: tr[data-case-id]. */
export function casesView(v: CasesView): SafeHtml {
  const f = v.filters.form;
  const form = html`<form method="get" action="/reconciliation/cases" id="cases-filter" class="filters">
${select(
  'c-state',
  'state',
  'State',
  f.state,
  CASE_STATES.map((s) => ({ value: s, label: s === 'all' ? 'All' : s === 'open' ? 'Open' : 'Resolved' })),
  null,
)}
${accountSelects('c', f, v.accounts)}
${select(
  'c-category',
  'category',
  'Category',
  f.category,
  DIFFERENCE_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] ?? c })),
)}
<div><label for="c-date">Business day</label><input id="c-date" name="date" type="date" value="${f.date}"></div>
<div><button type="submit">Filter</button> <a href="/reconciliation/cases">Clear</a></div></form>`;
  return html`<h1>Reconciliation cases</h1>
${tabs('cases', v.canResolve)}
<p class="muted">A case is one movement on which our books and the operator's records differ and that no rule resolves by itself.
Difference: how much more the operator holds for us than our books say (− less).</p>
${form}${errorList('cases-errors', v.filters.errors)}${v.page ? casesTable(v, v.page) : ''}`;
}

function casesTable(v: CasesView, page: NonNullable<CasesView['page']>): SafeHtml {
  if (page.rows.length === 0)
    return html`<p class="muted" id="no-cases">No case matches${v.filters.paged ? ' beyond this page' : ''}.</p>`;
  const rows = page.rows.map(
    (c) => html`<tr data-case-id="${c.id}" data-category="${c.category}">
<td>${c.businessDate}</td><td>${c.operator}</td><td>${c.countryCode}</td><td>${c.kind}</td>
<td><a href="/reconciliation/cases/${c.id}"><code>${c.recordKey}</code></a></td>
<td>${CATEGORY_LABELS[c.category] ?? c.category}</td>
<td class="num">${signedAmount(c.difference, c.currency)}</td>
<td>${stateBadge(c.state, c.resolution)}</td>
<td>${c.transactionId ? html`<a href="/transactions/${c.transactionId}">transaction</a>` : html`<span class="muted">none</span>`}</td></tr>`,
  );
  const older = page.next
    ? html`<a id="older-page" href="/reconciliation/cases?${listQuery(v.filters.form, { after: encodeCaseCursor(page.next) })}">Older →</a>`
    : html`<span class="muted">No older cases.</span>`;
  const newest = v.filters.paged
    ? html`<a id="newest-page" href="/reconciliation/cases?${listQuery(v.filters.form)}">← Newest</a> · `
    : '';
  return html`<table id="cases-table"><thead><tr><th>Business day</th><th>Operator</th><th>Country</th><th>Kind</th><th>Reference</th>
<th>Category</th><th>Difference</th><th>State</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<p class="pager">${newest}${older}</p>`;
}

// ---- One case ----

export interface CaseDetailView {
  c: CaseDetail;
  /** The linked transaction's history, when the case has one. */
  timeline: { items: TimelineItem[]; currency: string } | null;
  canResolve: boolean;
  csrfToken: string;
  notice?: string;
  /** A refused action (a second click): shown above the case, which is shown as it is now. */
  error?: string;
}

// Both sides' fields in a readable order; fields only one side has come after.
const SIDE_FIELDS: [string, string][] = [
  ['kind', 'Kind'],
  ['reference', 'Our reference'],
  ['operatorTxId', 'Operator transaction id'],
  ['amount', 'Amount'],
  ['currency', 'Currency'],
  ['outcome', 'Outcome'],
  ['status', 'Our status'],
  ['businessDate', "Operator's day"],
  ['source', 'Where the operator said it'],
  ['transactionId', 'Transaction'],
  ['refundId', 'Refund'],
];

function sideValue(value: unknown): SafeHtml {
  if (value === undefined) return html`<span class="muted">—</span>`;
  if (value === null) return html`<span class="muted">none</span>`;
  return html`${typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean)}`;
}

/** Our books and the operator's record side by side: tr[data-field], data-differs on fields both have and disagree on. */
export function bothSidesTable(ours: Record<string, unknown> | null, theirs: Record<string, unknown> | null): SafeHtml {
  const known = new Set(SIDE_FIELDS.map(([k]) => k));
  const extra = [...new Set([...Object.keys(ours ?? {}), ...Object.keys(theirs ?? {})])]
    .filter((k) => !known.has(k))
    .sort();
  const fields = [...SIDE_FIELDS, ...extra.map((k): [string, string] => [k, k])].filter(
    ([k]) => (ours !== null && k in ours) || (theirs !== null && k in theirs),
  );
  const rows = fields.map(([key, label]) => {
    const a = ours?.[key];
    const b = theirs?.[key];
    const differs =
      ours !== null && theirs !== null && key in ours && key in theirs && JSON.stringify(a) !== JSON.stringify(b);
    return html`<tr data-field="${key}"${differs ? raw(' data-differs') : ''}><th>${label}</th>
<td data-side="ours">${ours === null ? '' : sideValue(a)}</td><td data-side="theirs">${theirs === null ? '' : sideValue(b)}</td>
<td>${differs ? html`<span class="badge off">differs</span>` : ''}</td></tr>`;
  });
  const absent = (side: string) => html`<span class="muted">${side}</span>`;
  return html`<table id="both-sides"><thead><tr><th>Field</th><th>Our books</th><th>The operator</th><th></th></tr></thead>
<tbody>${
    ours === null || theirs === null
      ? html`<tr><th></th><td data-side="ours">${ours === null ? absent('no movement in our books') : ''}</td>
<td data-side="theirs">${theirs === null ? absent('no record at the operator') : ''}</td><td></td></tr>`
      : ''
  }${rows}</tbody></table>`;
}

function field(label: string, value: SafeHtml | string, key: string): SafeHtml {
  return html`<dt>${label}</dt><dd data-field="${key}">${value}</dd>`;
}

function actions(v: CaseDetailView): SafeHtml {
  const c = v.c;
  if (!v.canResolve) return html`<p class="muted" id="case-actions-none">Approvers and admins can act on a case.</p>`;
  const base = `/reconciliation/cases/${c.id}`;
  const toPost = c.difference - c.postedAmount;
  const requery = html`<form method="post" action="${base}/requery" id="requery-form">
${csrfField(v.csrfToken)}
<p><button type="submit" class="secondary" data-action="requery">Re-query the operator's day</button>
<span class="muted">Queues a reconciliation run of ${c.countryCode} · ${c.operator} for ${c.businessDate}: the operator is read again and the case updated. No money moves.</span></p></form>`;
  if (c.state !== 'OPEN') {
    return html`<p class="muted" id="case-resolved-note">This case is resolved: accepting or writing it off again is not possible. A later run opens it again if the difference changes.</p>${requery}`;
  }
  // Both forms say what the person was shown they would post: if a later run changed the case, nothing is posted.
  const shown = html`<input type="hidden" name="to_post" value="${String(toPost)}">`;
  return html`<form method="post" action="${base}/accept" id="accept-form">
${csrfField(v.csrfToken)}
${shown}
<p><button type="submit" data-action="accept">Accept the operator's side</button>
<span class="muted">Posts ${signedAmount(toPost, c.currency)} to what the operator holds for us (OPERATOR_RECEIVABLE), against the
reconciliation suspense of ${c.countryCode}, where it waits until finance settles who bears it. Our transaction and the merchant's balance do not change.</span></p></form>
<form method="post" action="${base}/write-off" id="write-off-form">
${csrfField(v.csrfToken)}
${shown}
<label for="write-off-reason">Reason for writing it off (3 to 255 characters, kept in the case and the audit log)</label>
<input type="text" id="write-off-reason" name="reason" required minlength="3" maxlength="255">
<p><button type="submit" class="danger" data-action="write-off">Write off</button>
<span class="muted">Accepts the operator's side as above, then the company absorbs the difference: reconciliation suspense to write-off.</span></p></form>
${requery}`;
}

/** One case: its facts, both sides, the actions (approvers and admins), and its transaction's timeline. */
export function caseDetailView(v: CaseDetailView): SafeHtml {
  const c = v.c;
  const fields = [
    field('Id', html`<code>${c.id}</code>`, 'id'),
    field('Operator account', `${c.countryCode} · ${c.operator}`, 'account'),
    field('Kind', c.kind, 'kind'),
    field('Reference', html`<code>${c.recordKey}</code>`, 'record_key'),
    field('Business day', c.businessDate, 'business_date'),
    field('Category', CATEGORY_LABELS[c.category] ?? c.category, 'category'),
    field('State', stateBadge(c.state, c.resolution), 'state'),
    field(
      'Difference',
      html`${signedAmount(c.difference, c.currency)} <span class="muted">(what the operator holds for us beyond our books)</span>`,
      'difference',
    ),
    field('Posted (accepted)', signedAmount(c.postedAmount, c.currency), 'posted_amount'),
    field('Written off', signedAmount(c.writtenOffAmount, c.currency), 'written_off_amount'),
    field(
      'Journals',
      c.journalIds.length > 0
        ? html`${c.journalIds.map((j, i) => html`${i > 0 ? ', ' : ''}<code>${j}</code>`)}`
        : orDash(null),
      'journal_ids',
    ),
    field('Note', orDash(c.note), 'note'),
    field(
      'Resolved by',
      c.resolvedBy
        ? html`${c.resolvedBy.name} <span class="muted">(${c.resolvedBy.email})</span>`
        : c.resolution && c.resolution !== 'ACCEPTED' && c.resolution !== 'WRITTEN_OFF'
          ? html`<span class="muted">the service</span>`
          : orDash(null),
      'resolved_by',
    ),
    field('Resolved', when(c.resolvedAt), 'resolved_at'),
    field(
      'Transaction',
      c.transactionId
        ? html`<a href="/transactions/${c.transactionId}" id="case-transaction-link"><code>${c.transactionId}</code></a>`
        : html`<span class="muted">none (unknown to us)</span>`,
      'transaction_id',
    ),
    field('Opened', when(c.createdAt), 'created_at'),
    field('Updated', when(c.updatedAt), 'updated_at'),
  ];
  return html`<p><a href="/reconciliation/cases">← Cases</a></p>
<h1>Case <code>${c.recordKey}</code></h1>
${v.notice ? html`<p class="notice" id="case-notice">${v.notice}</p>` : ''}
${v.error ? html`<p class="error" id="case-error" role="alert">${v.error}</p>` : ''}
<dl class="fields" id="case-fields">${fields}</dl>
<h2>Both sides</h2>
${bothSidesTable(c.ours, c.theirs)}
<h2>Actions</h2>
<div id="case-actions">${actions(v)}</div>
<h2>The transaction's timeline</h2>
${
  c.transactionId
    ? v.timeline
      ? html`<p><a href="/transactions/${c.transactionId}">Open the transaction's page →</a></p>${timelineView(v.timeline.items, v.timeline.currency)}`
      : html`<p class="muted" id="no-timeline">The transaction is not found.</p>`
    : html`<p class="muted" id="no-timeline">No transaction of ours: the operator recorded a movement we have no trace of.</p>`
}`;
}

// ---- Statement import ----

/** How many line errors the page lists; the rest are counted. */
const ERRORS_SHOWN = 200;

export interface ImportView {
  accounts: AccountOption[];
  csrfToken: string;
  /** The account chosen (kept after a refusal). */
  account: string;
  maxMegabytes: number;
  outcome?: ImportOutcome;
  /** The form itself was refused (no account, no file): nothing read. */
  error?: string;
}

function importResult(o: ImportOutcome, account: string): SafeHtml {
  if (o.kind === 'refused') {
    const shown = o.errors.slice(0, ERRORS_SHOWN);
    return html`<div class="error" id="import-errors" role="alert"><p>The file was refused: nothing was imported. Correct these lines and import it again.</p>
<table><thead><tr><th>Line</th><th>Problem</th></tr></thead><tbody>${shown.map((e) => html`<tr data-line="${e.line}"><td>${e.line}</td><td>${e.message}</td></tr>`)}</tbody></table>
${o.errors.length > shown.length ? html`<p>… and ${o.errors.length - shown.length} more.</p>` : ''}</div>`;
  }
  const days = o.days.map(
    (d, i) => html`${i > 0 ? ', ' : ''}<span data-day="${d.date}">${d.date} (${d.records})</span>`,
  );
  return html`<div class="notice" id="import-result"><p>Imported <strong data-imported="${o.records}">${o.records}</strong> record${o.records === 1 ? '' : 's'}
for ${account.replace(':', ' · ')}: ${days}.</p>
${o.queued.length > 0 ? html`<p>A reconciliation run is queued for ${o.queued.length === o.days.length ? 'each of these days' : o.queued.join(', ')}: see the days and the cases once they have run.</p>` : ''}
<p class="muted">File SHA-256 <code>${o.sha256}</code></p></div>
${
  o.notQueued.length > 0
    ? html`<p class="error" id="import-not-queued" role="alert">The records are saved, but no run could be queued for ${o.notQueued.join(', ')} (the queue did not answer):
re-query one of the day's cases, or import the same file again (it replaces the same records).</p>`
    : ''
}`;
}

export function importView(v: ImportView): SafeHtml {
  const options = v.accounts.map((a) => {
    const value = `${a.countryCode}:${a.operator}`;
    return html`<option value="${value}"${value === v.account ? raw(' selected') : ''}>${a.countryCode} · ${a.operator}</option>`;
  });
  return html`<h1>Import an operator's statement</h1>
${tabs('import', true)}
${v.error ? html`<p class="error" id="import-error" role="alert">${v.error}</p>` : ''}
${v.outcome ? importResult(v.outcome, v.account) : ''}
<form method="post" action="/reconciliation/import" enctype="multipart/form-data" id="statement-import" class="card">
${csrfField(v.csrfToken)}
<label for="i-account">Operator account</label>
<select id="i-account" name="account" required><option value="">Choose…</option>${options}</select>
<label for="i-file">Statement (CSV, UTF-8, at most ${v.maxMegabytes} MB)</label>
<input type="file" id="i-file" name="statement" accept=".csv,text/csv" required>
<p><button type="submit">Import</button></p>
</form>
<details><summary>What the file must look like</summary>
<p>One line per movement, with a header naming at least <code>kind</code>, <code>amount</code>, <code>currency</code>, <code>status</code>,
<code>occurred_at</code> and <code>reference</code> (ours, when the operator echoes it) or <code>operator_tx_id</code>. Kinds: CASHIN (or COLLECTION,
PAYMENT), REFUND, PAYOUT (or TRANSFER, DISBURSEMENT); statuses in the operator's words (SUCCESSFUL, FAILED, PENDING, ...); amounts in whole units;
<code>occurred_at</code> an ISO 8601 date or time, whose UTC day is the movement's business day.</p>
<p>A file with any bad line is refused whole, each bad line named: half a statement would make the other half look missing at the operator.
Importing a file again replaces the same records (nothing is counted twice). After an import, the days it covers are reconciled again.</p>
</details>`;
}
