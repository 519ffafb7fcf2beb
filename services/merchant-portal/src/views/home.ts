import type { BalanceRow } from '@mm/db/ledger';
import type { MerchantActivity } from '@mm/db/payments';
import { amount, html, type SafeHtml } from '@mm/web';
import { fill } from '../i18n/developers.js';
import { failureLabel, homeText, type HomeText } from '../i18n/home.js';
import type { Locale } from '../i18n/locale.js';
import { t } from '../i18n/messages.js';
import { barList, columnChart } from './charts.js';

export interface HomeData {
  balances: BalanceRow[];
  activity: MerchantActivity;
}

/** A count with its thousands grouped as amounts are (a narrow no-break space). */
export const grouped = (n: number | bigint) => n.toString().replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');

/** 0..1 as a percentage with one decimal at most, written as the language writes it ("87.5%", "87,5 %"). */
export function percent(locale: Locale, share: number): string {
  const n = Number((share * 100).toFixed(1)).toString();
  return locale === 'fr' ? `${n.replace('.', ',')}\u202f%` : `${n}%`;
}

/** "2 Dec" / "2 déc." of a UTC day. */
export function shortDay(locale: Locale, day: string): string {
  return new Intl.DateTimeFormat(locale === 'fr' ? 'fr-FR' : 'en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  }).format(new Date(`${day}T00:00:00Z`));
}

export function homeView(locale: Locale, data: HomeData): SafeHtml {
  const m = t(locale);
  return html`<h1>${m.home}</h1>
<h2>${m.balances}</h2>
${
  data.balances.length === 0
    ? html`<p class="muted">${m.noSubsidiary}</p>`
    : html`<div class="tiles" id="balances">${data.balances.map(
        (b) => html`<div class="tile" data-country="${b.countryCode}"><span class="k">${b.countryName}</span>
<span class="n" data-balance="available">${amount(b.available, b.currency)}</span>
<span class="k">${m.available}</span> · <span class="k" data-balance="pending">${m.pending} ${amount(b.pending, b.currency)}</span></div>`,
      )}</div>`
}
${activitySection(locale, homeText(locale), data.activity)}`;
}

function activitySection(locale: Locale, h: HomeText, a: MerchantActivity): SafeHtml {
  const { totals } = a;
  if (totals.succeeded + totals.unsuccessful + totals.inFlight === 0) {
    return html`<section id="activity"><h2>${h.activityTitle}</h2><p class="muted" id="no-activity">${h.noActivity}</p></section>`;
  }
  const first = shortDay(locale, a.days[0]!.day);
  const last = shortDay(locale, a.days[a.days.length - 1]!.day);
  const labelled = (day: string) => shortDay(locale, day);
  const sep = locale === 'fr' ? '\u00a0: ' : ': ';
  const collectedCharts = a.currencies.map((currency) => {
    const values = a.days.map((d) => d.collected[currency] ?? 0n);
    const total = values.reduce((s, v) => s + v, 0n);
    const max = values.reduce((s, v) => (v > s ? v : s), 0n);
    return columnChart(
      {
        id: `chart-collected-${currency}`,
        title: fill(h.collectedChart, { currency }),
        desc: fill(h.collectedDesc, {
          first,
          last,
          currency,
          max: amount(max, currency),
          total: amount(total, currency),
        }),
      },
      a.days.map((d, i) => ({
        label: labelled(d.day),
        value: Number(values[i]!),
        title: `${labelled(d.day)}${sep}${amount(values[i]!, currency)}`,
      })),
      { axisLabel: (v) => amount(v, currency) },
    );
  });
  const counts = a.days.map((d) => d.succeeded);
  const countChart = columnChart(
    {
      id: 'chart-count',
      title: h.countChart,
      desc: fill(h.countDesc, { first, last, max: grouped(Math.max(...counts)), total: grouped(totals.succeeded) }),
    },
    a.days.map((d) => ({
      label: labelled(d.day),
      value: d.succeeded,
      title: `${labelled(d.day)}${sep}${grouped(d.succeeded)}`,
    })),
    { axisLabel: (v) => grouped(v) },
  );
  const rateChart = columnChart(
    {
      id: 'chart-rate',
      title: h.rateChart,
      desc: fill(h.rateDesc, {
        first,
        last,
        rate: totals.successRate === null ? h.noRate : percent(locale, totals.successRate),
      }),
    },
    a.days.map((d) => ({
      label: labelled(d.day),
      value: d.successRate === null ? null : d.successRate * 100,
      title: `${labelled(d.day)}${sep}${d.successRate === null ? h.noRate : percent(locale, d.successRate)}`,
    })),
    { max: 100, axisLabel: (v) => percent(locale, v / 100) },
  );
  const rate = (r: number | null) => (r === null ? html`<span class="muted">—</span>` : html`${percent(locale, r)}`);
  const table = html`<details><summary>${h.dataTable}</summary><div class="scroll"><table id="activity-table">
<thead><tr><th scope="col">${h.day}</th><th scope="col">${h.succeeded}</th><th scope="col">${h.unsuccessful}</th><th scope="col">${h.inFlight}</th><th scope="col">${h.rate}</th>${a.currencies.map(
    (c) => html`<th scope="col">${fill(h.collected, { currency: c })}</th>`,
  )}</tr></thead>
<tbody>${a.days.map(
    (d) =>
      html`<tr data-day="${d.day}"><th scope="row">${d.day}</th><td>${grouped(d.succeeded)}</td><td>${grouped(d.unsuccessful)}</td><td>${grouped(d.inFlight)}</td><td>${rate(d.successRate)}</td>${a.currencies.map(
        (c) => html`<td>${amount(d.collected[c] ?? 0n, c)}</td>`,
      )}</tr>`,
  )}</tbody>
<tfoot><tr data-day="total"><th scope="row">${h.total}</th><td>${grouped(totals.succeeded)}</td><td>${grouped(totals.unsuccessful)}</td><td>${grouped(totals.inFlight)}</td><td>${rate(totals.successRate)}</td>${a.currencies.map(
    (c) =>
      html`<td>${amount(
        a.days.reduce((s, d) => s + (d.collected[c] ?? 0n), 0n),
        c,
      )}</td>`,
  )}</tr></tfoot></table></div></details>`;
  return html`<section id="activity"><h2>${h.activityTitle}</h2><p class="muted">${h.activityHelp}</p>
<div class="charts">${collectedCharts}${countChart}${rateChart}</div>
${table}</section>
${failuresSection(locale, h, a)}
${operatorsSection(locale, h, a)}`;
}

function failuresSection(locale: Locale, h: HomeText, a: MerchantActivity): SafeHtml {
  const total = a.failures.reduce((s, f) => s + f.count, 0);
  if (total === 0) {
    return html`<section id="failures"><h2>${h.failuresTitle}</h2><p class="muted">${h.noFailures}</p></section>`;
  }
  const rows = a.failures.map((f) => ({
    code: f.code,
    label: failureLabel(locale, f.code),
    count: f.count,
    share: percent(locale, f.count / total),
  }));
  return html`<section id="failures"><h2>${h.failuresTitle}</h2>
${barList(
  { id: 'chart-failures', title: h.failuresTitle, desc: fill(h.failuresDesc, { total: grouped(total) }) },
  rows.map((r) => ({ label: r.label, value: r.count, figure: `${grouped(r.count)} (${r.share})` })),
)}
<div class="scroll"><table id="failures-table"><thead><tr><th scope="col">${h.reason}</th><th scope="col">${h.code}</th><th scope="col">${h.count}</th><th scope="col">${h.share}</th></tr></thead>
<tbody>${rows.map(
    (r) =>
      html`<tr data-code="${r.code}"><td>${r.label}</td><td><code>${r.code}</code></td><td>${grouped(r.count)}</td><td>${r.share}</td></tr>`,
  )}</tbody></table></div></section>`;
}

function operatorsSection(locale: Locale, h: HomeText, a: MerchantActivity): SafeHtml {
  const total = a.operators.reduce((s, o) => s + o.count, 0);
  if (total === 0) {
    return html`<section id="operators"><h2>${h.operatorsTitle}</h2><p class="muted">${h.noOperators}</p></section>`;
  }
  const rows = a.operators.map((o) => ({ ...o, share: percent(locale, o.count / total) }));
  return html`<section id="operators"><h2>${h.operatorsTitle}</h2>
${barList(
  { id: 'chart-operators', title: h.operatorsTitle, desc: fill(h.operatorsDesc, { total: grouped(total) }) },
  rows.map((r) => ({
    label: `${r.operator} (${r.currency})`,
    value: r.count,
    figure: `${grouped(r.count)} (${r.share}) · ${amount(r.amount, r.currency)}`,
  })),
)}
<div class="scroll"><table id="operators-table"><thead><tr><th scope="col">${h.operator}</th><th scope="col">${h.count}</th><th scope="col">${h.share}</th><th scope="col">${h.amount}</th></tr></thead>
<tbody>${rows.map(
    (r) =>
      html`<tr data-operator="${r.operator}" data-currency="${r.currency}"><td>${r.operator}</td><td>${grouped(r.count)}</td><td>${r.share}</td><td>${amount(r.amount, r.currency)}</td></tr>`,
  )}</tbody></table></div></section>`;
}
