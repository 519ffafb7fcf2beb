import type { StaffAccount } from '@mm/db/staff';
import type { OperatorAccountSummary } from '@mm/db/operator-accounts';
import type { CashinDayTotals } from '@mm/db/payments';
import { permissionsOf } from '@mm/domain';
import { amount, html, type SafeHtml, when } from '@mm/web';

/** What the home page shows; a block the role may not see is undefined and not rendered. */
export interface HomeData {
  /** The UTC day of the figures, YYYY-MM-DD. */
  day: string;
  cashins?: { byOperator: CashinDayTotals[]; byCountry: CashinDayTotals[] };
  awaitingCashouts?: number;
  openCases?: number;
  parkedJobs?: number;
  operatorsDown?: OperatorAccountSummary[];
}

const DASH = html`<span class="muted">—</span>`;

function rate(t: CashinDayTotals): SafeHtml {
  // One decimal: at a few hundred cash-ins a day, a whole percent hides a change worth seeing.
  return t.successRate === null ? DASH : html`${(t.successRate * 100).toFixed(1)} %`;
}

function collected(t: CashinDayTotals): SafeHtml {
  const currencies = Object.keys(t.successAmount).sort();
  if (currencies.length === 0) return DASH;
  return html`${currencies.map(
    (c, i) => html`${i > 0 ? html`<br>` : ''}<span data-currency="${c}">${amount(t.successAmount[c]!, c)}</span>`,
  )}`;
}

function totalsTable(id: string, label: string, attribute: 'operator' | 'country', rows: CashinDayTotals[]): SafeHtml {
  return html`<div class="scroll"><table id="${id}">
<thead><tr><th>${label}</th><th>Cash-ins</th><th>Succeeded</th><th>Failed</th><th>Expired</th><th>Collected</th><th>Success rate</th></tr></thead>
<tbody>${rows.map(
    (t) => html`<tr data-${attribute}="${t.key}"><th scope="row">${t.key}</th><td class="created">${t.created}</td>
<td class="success">${t.success}</td><td class="failed">${t.failed}</td><td class="expired">${t.expired}</td>
<td class="collected">${collected(t)}</td><td class="rate">${rate(t)}</td></tr>`,
  )}</tbody></table></div>`;
}

function volume(day: string, cashins: NonNullable<HomeData['cashins']>): SafeHtml {
  const search = `/transactions?type=CASHIN&from=${day}&to=${day}`;
  const body =
    cashins.byOperator.length === 0
      ? html`<p id="home-volume-empty" class="muted">No cash-in created today yet.</p>`
      : html`${totalsTable('home-volume-operators', 'Operator', 'operator', cashins.byOperator)}
<h3>By country</h3>
${totalsTable('home-volume-countries', 'Country', 'country', cashins.byCountry)}`;
  return html`<section id="home-volume">
<h2>Cash-ins today <span class="muted">(${day}, UTC)</span></h2>
<p class="muted">Created today, by where they stand now. Success rate: succeeded out of succeeded, failed and expired;
collected: the amounts of those that succeeded. <a href="${search}" id="home-volume-link">Today's cash-ins</a></p>
${body}
</section>`;
}

/** One count linking to the page that lists what it counts. */
function tile(id: string, href: string, count: number, label: string, extra: SafeHtml | '' = ''): SafeHtml {
  return html`<div class="tile${count > 0 ? ' alert' : ''}" id="${id}" data-count="${count}">
<a href="${href}"><span class="n">${count}</span> ${label}</a>${extra}</div>`;
}

function downList(accounts: OperatorAccountSummary[]): SafeHtml | '' {
  if (accounts.length === 0) return '';
  return html`<ul id="home-operators-down-list">${accounts.map(
    (a) =>
      html`<li data-account="${a.countryCode}:${a.operator}">${a.countryCode} ${a.operator}, since ${when(a.markedDownAt)}: ${a.markedDownReason ?? ''}</li>`,
  )}</ul>`;
}

function attention(data: HomeData): SafeHtml | '' {
  const tiles: SafeHtml[] = [];
  if (data.awaitingCashouts !== undefined)
    tiles.push(tile('home-cashouts', '/cashouts', data.awaitingCashouts, 'cash-outs waiting for approval'));
  if (data.openCases !== undefined)
    tiles.push(tile('home-reconciliation', '/reconciliation', data.openCases, 'open reconciliation cases'));
  if (data.parkedJobs !== undefined)
    tiles.push(tile('home-parked-jobs', '/jobs/parked', data.parkedJobs, 'parked jobs'));
  if (data.operatorsDown !== undefined)
    tiles.push(
      tile(
        'home-operators-down',
        '/operators',
        data.operatorsDown.length,
        'operator accounts marked down',
        downList(data.operatorsDown),
      ),
    );
  return tiles.length === 0 ? '' : html`<section><h2>Needs attention</h2><div class="tiles">${tiles}</div></section>`;
}

export function homeView(staff: StaffAccount, data: HomeData): SafeHtml {
  return html`<h1 id="home-title">Welcome, ${staff.name}</h1>
<p>You are logged in as <strong>${staff.email}</strong> with the role <span class="badge">${staff.role}</span>.</p>
${attention(data)}
${data.cashins ? volume(data.day, data.cashins) : ''}
<details><summary class="muted">What this role may do</summary>
<ul id="home-permissions">${permissionsOf(staff.role).map((p) => html`<li><code>${p}</code></li>`)}</ul></details>`;
}
