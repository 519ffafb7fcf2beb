import type { MerchantUserAccount } from '@mm/db/merchant-users';
import { csrfField, html, when, type SafeHtml } from '@mm/web';
import { accountMessages } from '../i18n/account.js';
import type { Locale } from '../i18n/locale.js';
import { roleLabel, t } from '../i18n/messages.js';

export interface AccountView {
  locale: Locale;
  csrfToken: string;
  user: MerchantUserAccount;
  recoveryLeft: number;
  /** The key being set up: its QR code and the key to type. */
  pending: { secret: string; qr: SafeHtml } | null;
  notice?: string;
  error?: string;
}

const alerts = (v: { notice?: string | undefined; error?: string | undefined }) =>
  html`${v.error ? html`<p class="error" id="account-error" role="alert">${v.error}</p>` : ''}${
    v.notice ? html`<p class="notice" id="account-notice" role="status">${v.notice}</p>` : ''
  }`;

const codeInput = (id: string, label: string) =>
  html`<label for="${id}">${label}</label><input id="${id}" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="32">`;

/** Typed by hand from a screen: groups of four, as authenticator apps accept them. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

function twoFactorSection(v: AccountView): SafeHtml {
  const a = accountMessages(v.locale);
  const token = csrfField(v.csrfToken);
  if (v.pending) {
    return html`<p>${a.scan}</p>${v.pending.qr}
<p>${a.key}: <code id="totp-secret">${grouped(v.pending.secret)}</code></p>
<form method="post" action="/account/two-factor/confirm" id="two-factor-confirm">${token}
${codeInput('confirm-code', a.confirmCode)}<p><button type="submit">${a.confirm}</button></p></form>
<form method="post" action="/account/two-factor/start" id="two-factor-restart">${token}
<button type="submit" class="secondary">${a.restart}</button></form>`;
  }
  if (!v.user.totpEnabledAt) {
    return html`<p class="muted">${a.offHelp}</p>
<form method="post" action="/account/two-factor/start" id="two-factor-start">${token}<button type="submit">${a.start}</button></form>`;
  }
  const turnOff = v.user.merchant.requireTwoFactor
    ? html`<p class="muted" id="two-factor-locked">${a.turnOffRequired}</p>`
    : html`<form method="post" action="/account/two-factor/disable" id="two-factor-disable">${token}
${codeInput('disable-code', a.currentCode)}<p><button type="submit" class="danger">${a.turnOff}</button></p></form>`;
  return html`<h3>${a.newPhoneTitle}</h3><p class="muted">${a.newPhoneHelp}</p>
<form method="post" action="/account/two-factor/start" id="two-factor-reset">${token}
${codeInput('reset-code', a.currentCode)}<p><button type="submit" class="secondary">${a.newPhone}</button></p></form>
<h3>${a.turnOffTitle}</h3>${turnOff}`;
}

export function accountView(v: AccountView): SafeHtml {
  const a = accountMessages(v.locale);
  const { user } = v;
  const state = v.pending
    ? html`<span class="badge" data-two-factor="pending">${a.statePending}</span>`
    : user.totpEnabledAt
      ? html`<span class="badge ok" data-two-factor="on">${a.stateOn}</span> ${a.since} ${when(user.totpEnabledAt)}`
      : html`<span class="badge off" data-two-factor="off">${a.stateOff}</span>`;
  return html`<h1>${a.title}</h1>${alerts(v)}
<dl class="fields" id="account-details">
<dt>${a.name}</dt><dd id="account-name">${user.name}</dd>
<dt>${a.email}</dt><dd id="account-email">${user.email}</dd>
<dt>${a.role}</dt><dd id="account-role">${roleLabel(v.locale, user.role)}</dd>
<dt>${a.twoFactor}</dt><dd id="two-factor-state">${state}</dd>
${user.totpEnabledAt ? html`<dt>${a.recoveryLeft}</dt><dd id="recovery-left">${v.recoveryLeft}</dd>` : ''}
</dl>
<h2>${a.twoFactor}</h2>
<section id="two-factor">${twoFactorSection(v)}</section>
<h2>${a.sessionsTitle}</h2>
<p class="muted">${a.sessionsHelp}</p>
<form method="post" action="/account/sign-out-everywhere" id="sign-out-everywhere">${csrfField(v.csrfToken)}
<button type="submit" class="danger">${t(v.locale).signOutEverywhere}</button></form>`;
}

/** Shown once, right after two-factor sign-in is turned on: only hashes are kept. */
export function recoveryCodesView(locale: Locale, codes: string[]): SafeHtml {
  const a = accountMessages(locale);
  return html`<h1>${a.recoveryTitle}</h1><p class="notice" id="account-notice" role="status">${a.enabled}</p>
<p>${a.recoveryHelp}</p>
<ol id="recovery-codes">${codes.map((c) => html`<li><code>${c}</code></li>`)}</ol>
<p><a href="/account" id="recovery-done">${a.recoveryDone}</a></p>`;
}
