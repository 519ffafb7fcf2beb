import { formatAmount, NBSP } from './format.js';
import { operatorName, type Lang } from './i18n.js';
import { LINK_MESSAGES, type LinkClosedReason } from './link-i18n.js';
import { escapeHtml, shell } from './render.js';

/** What a payment link's page shows: the route builds it from the link and the subsidiary's operators. */
export interface LinkPageView {
  merchantName: string;
  description: string;
  currency: string;
  amount: { kind: 'fixed'; amount: number } | { kind: 'range'; min: number; max: number };
  /** "+225": the number field starts with it. */
  callingCode: string;
  /** Operators the customer may pick by name (Wave); none: the number decides. */
  operators: readonly string[];
  formAction: string;
  /** What the customer typed, shown again with the error of a refused submission. */
  typed?: { msisdn?: string; amount?: string; operator?: string };
  error?: string | null;
}

const LINK_CSS = `<style nonce="%N">.desc{font-size:1.125rem;margin:0 0 1rem}.hint{color:#444;font-size:.875rem;margin:-.5rem 0 .75rem}
input.num,input.amt{letter-spacing:normal}.ops label{display:flex;gap:.5rem;align-items:center;font-weight:400;margin:.25rem 0}
.ops input{width:auto;display:inline;margin:0}fieldset{border:0;padding:0;margin:0 0 .75rem}legend{font-weight:600;padding:0;margin:.75rem 0 .25rem}</style>`;

/** The link's page with its form. Pure: everything shown comes from `view`, escaped. */
export function renderLinkPage(view: LinkPageView, lang: Lang, nonce: string): string {
  const m = LINK_MESSAGES[lang];
  const typed = view.typed ?? {};
  const amount =
    view.amount.kind === 'fixed'
      ? `<p class="k">${escapeHtml(m.amount)}</p><p class="v amount" id="amount">${escapeHtml(formatAmount(view.amount.amount, view.currency))}</p>`
      : `<label for="amount">${escapeHtml(m.amount)} (${escapeHtml(view.currency === 'XOF' || view.currency === 'XAF' ? `F${NBSP}CFA` : view.currency)})</label>
<p class="hint" id="amount-bounds">${escapeHtml(m.amountBetween(formatAmount(view.amount.min, view.currency), formatAmount(view.amount.max, view.currency)))}</p>
<input class="amt" id="amount" name="amount" type="text" inputmode="numeric" pattern="[0-9 ]{1,15}" required value="${escapeHtml(typed.amount ?? '')}">`;
  const operators =
    view.operators.length === 0
      ? ''
      : `<fieldset class="ops" id="operators"><legend>${escapeHtml(m.operator)}</legend>
<label><input type="radio" name="operator" value=""${typed.operator ? '' : ' checked'}> ${escapeHtml(m.operatorAuto)}</label>
${view.operators.map((o) => `<label><input type="radio" name="operator" value="${escapeHtml(o)}"${typed.operator === o ? ' checked' : ''}> ${escapeHtml(operatorName(lang, o))}</label>`).join('\n')}</fieldset>`;
  const error = view.error ? `<p id="link-error" class="note err" role="alert">${escapeHtml(view.error)}</p>\n` : '';
  const body = `<p class="k">${escapeHtml(m.payTo)}</p><h1>${escapeHtml(view.merchantName)}</h1>
<p class="desc" id="description">${escapeHtml(view.description)}</p>
${error}<form id="link-form" method="post" action="${escapeHtml(view.formAction)}">${amount}
<label for="msisdn">${escapeHtml(m.phone)}</label>
<input class="num" id="msisdn" name="msisdn" type="tel" inputmode="tel" autocomplete="tel" required maxlength="24" value="${escapeHtml(typed.msisdn ?? `${view.callingCode} `)}">
<p class="hint">${escapeHtml(m.phoneHint)}</p>
${operators}<button type="submit" id="pay">${escapeHtml(m.submit)}</button></form>`;
  return shell(lang, nonce, m.htmlTitle(view.merchantName), LINK_CSS.replace('%N', escapeHtml(nonce)), body);
}

/** Something went wrong on our side: try again (503, the database or Redis away) or later (500). */
export function renderLinkError(lang: Lang, nonce: string, unavailable: boolean): string {
  const m = LINK_MESSAGES[lang];
  const text = unavailable ? m.unavailable : m.failed;
  return shell(lang, nonce, text, '', `<h1 id="link-failed">${escapeHtml(text)}</h1>`);
}

/** A link that takes no payment now, or none at that address: a page that says why, never a stack. */
export function renderLinkClosed(
  lang: Lang,
  nonce: string,
  reason: LinkClosedReason,
  merchantName: string | null,
): string {
  const m = LINK_MESSAGES[lang];
  const who = merchantName ? `<p class="k">${escapeHtml(m.payTo)}</p><p class="v">${escapeHtml(merchantName)}</p>` : '';
  return shell(
    lang,
    nonce,
    m.closedTitle[reason],
    '',
    `${who}<h1 id="closed" data-reason="${reason}">${escapeHtml(m.closedTitle[reason])}</h1><p>${escapeHtml(m.closedText[reason])}</p>`,
  );
}
