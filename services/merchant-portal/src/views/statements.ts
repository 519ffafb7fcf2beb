import type { StatementRow } from '@mm/db/ledger';
import { amount, html, raw, type SafeHtml } from '@mm/web';
import { fill } from '../i18n/developers.js';
import type { Locale } from '../i18n/locale.js';
import type { StatementsText } from '../i18n/statements.js';
import type { ExportForm } from '../routes/statements-forms.js';

export interface StatementsView {
  exportForm: ExportForm;
  exportErrors: string[];
  month: string;
  monthError: string | null;
  /** Null when the month was refused. */
  statement: { rows: StatementRow[]; underWay: boolean } | null;
}

const errorBox = (id: string, intro: string, errors: string[]) =>
  errors.length > 0
    ? html`<div class="error" id="${id}" role="alert"><p>${intro}</p><ul>${errors.map((e) => html`<li>${e}</li>`)}</ul></div>`
    : '';

/** "November 2026" / "novembre 2026" of a `YYYY-MM`. */
export function monthName(locale: Locale, month: string): string {
  return new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${month}-01T00:00:00Z`));
}

export function statementsView(locale: Locale, m: StatementsText, v: StatementsView): SafeHtml {
  const f = v.exportForm;
  const option = (value: string, label: string) =>
    html`<option value="${value}"${value === f.format ? raw(' selected') : ''}>${label}</option>`;
  const exportForm = html`<section id="export"><h2>${m.exportTitle}</h2><p class="muted">${m.exportHelp}</p>
<form method="get" action="/statements/export" id="export-form" class="filters">
<div><label for="e-from">${m.from}</label><input id="e-from" name="from" type="date" value="${f.from}" required></div>
<div><label for="e-to">${m.to}</label><input id="e-to" name="to" type="date" value="${f.to}" required></div>
<div><label for="e-format">${m.format}</label><select id="e-format" name="format">${option('csv', m.csv)}${option('json', m.json)}</select></div>
<div><button type="submit">${m.download}</button></div>
</form>${errorBox('export-errors', m.notRun, v.exportErrors)}</section>`;

  const monthForm = html`<form method="get" action="/statements" id="month-form" class="filters">
<div><label for="s-month">${m.month}</label><input id="s-month" name="month" type="month" value="${v.month}" placeholder="2026-11" pattern="\\d{4}-\\d{2}"></div>
<div><button type="submit">${m.show}</button></div></form>`;
  const monthError = v.monthError ? html`<p class="error" id="month-error" role="alert">${v.monthError}</p>` : '';
  return html`<h1>${m.title}</h1>${exportForm}
<section id="monthly"><h2>${m.monthlyTitle}</h2><p class="muted">${m.monthlyHelp}</p>${monthForm}${monthError}
${v.statement ? statementTable(locale, m, v.month, v.statement) : ''}</section>`;
}

function statementTable(
  locale: Locale,
  m: StatementsText,
  month: string,
  s: { rows: StatementRow[]; underWay: boolean },
): SafeHtml {
  if (s.rows.length === 0) return html`<p class="muted">${m.noSubsidiary}</p>`;
  const withOther = s.rows.some((r) => r.other !== 0n);
  const money = (v: bigint, r: StatementRow) => html`<td>${amount(v, r.currency)}</td>`;
  return html`<h3 id="statement-month">${fill(m.statementOf, { month: monthName(locale, month) })}</h3>
${s.underWay ? html`<p class="muted" id="under-way">${m.underWay}</p>` : ''}
<div class="scroll"><table id="statement-table"><thead><tr><th scope="col">${m.country}</th><th scope="col">${m.opening}</th>
<th scope="col">${m.collected}</th><th scope="col">${m.refunded}</th><th scope="col">${m.paidOut}</th>${withOther ? html`<th scope="col">${m.other}</th>` : ''}<th scope="col">${m.closing}</th></tr></thead>
<tbody>${s.rows.map(
    (r) =>
      html`<tr data-country="${r.countryCode}"><th scope="row">${r.countryName} (${r.countryCode})</th>${money(r.opening, r)}${money(r.collected, r)}${money(r.refunded, r)}${money(r.paidOut, r)}${withOther ? money(r.other, r) : ''}${money(r.closing, r)}</tr>`,
  )}</tbody></table></div>`;
}
