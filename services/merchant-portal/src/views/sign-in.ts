import { csrfField, html, type SafeHtml } from '@mm/web';
import type { Locale } from '../i18n/locale.js';
import { t } from '../i18n/messages.js';
import { linkMessages } from '../i18n/team.js';

export interface SignInView {
  locale: Locale;
  csrfToken: string;
  next?: string;
  email?: string;
  error?: string;
  notice?: string;
}

const alerts = (v: { error?: string; notice?: string }) =>
  html`${v.error ? html`<p class="error" id="sign-in-error" role="alert">${v.error}</p>` : ''}${
    v.notice ? html`<p class="notice" id="sign-in-notice" role="status">${v.notice}</p>` : ''
  }`;

export function signInView(v: SignInView): SafeHtml {
  const m = t(v.locale);
  return html`<div class="card login"><h1>${m.signInTitle}</h1>${alerts(v)}
<form method="post" action="/login" id="sign-in-form">${csrfField(v.csrfToken)}
${v.next ? html`<input type="hidden" name="next" value="${v.next}">` : ''}
<label for="email">${m.email}</label><input id="email" name="email" type="email" autocomplete="username" required value="${v.email ?? ''}">
<label for="password">${m.password}</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<p><button type="submit">${m.signIn}</button></p></form>
<p><a href="/password-reset" id="forgot-password">${linkMessages(v.locale).forgot}</a></p></div>`;
}

export function secondFactorView(v: { locale: Locale; csrfToken: string; error?: string }): SafeHtml {
  const m = t(v.locale);
  return html`<div class="card login"><h1>${m.twoFactorTitle}</h1>${alerts(v)}
<form method="post" action="/login/code" id="code-form">${csrfField(v.csrfToken)}
<label for="code">${m.twoFactorCode}</label>
<input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required maxlength="32" autofocus>
<p><button type="submit">${m.continue}</button></p></form></div>`;
}
