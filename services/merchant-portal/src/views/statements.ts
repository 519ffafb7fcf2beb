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
  // One small table per country, side by side on a desk and one under the other on a phone: a line per figure.
  const card = (r: StatementRow) => {
    const lines: [string, string, bigint][] = [
      ['opening', m.opening, r.opening],
      ['collected', m.collected, r.collected],
      ['refunded', m.refunded, r.refunded],
      ['paid-out', m.paidOut, r.paidOut],
      ...(withOther ? [['other', m.other, r.other] as [string, string, bigint]] : []),
      ['closing', m.closing, r.closing],
    ];
    return html`<div class="statement" data-country="${r.countryCode}"><table><caption>${r.countryName} (${r.countryCode})</caption>
<tbody>${lines.map(
      ([key, label, value]) =>
        html`<tr data-line="${key}"><th scope="row">${label}</th><td>${amount(value, r.currency)}</td></tr>`,
    )}</tbody></table></div>`;
  };
  return html`<h3 id="statement-month">${fill(m.statementOf, { month: monthName(locale, month) })}</h3>
${s.underWay ? html`<p class="muted" id="under-way">${m.underWay}</p>` : ''}
<div class="tiles" id="statement">${s.rows.map(card)}</div>`;
}
