/** The pages a link from a mail opens: an invitation's acceptance, a password reset, and a link that no longer works. */
import { csrfField, html, type SafeHtml } from '@mm/web';
import type { Locale } from '../i18n/locale.js';
import { roleLabel, t } from '../i18n/messages.js';
import { linkMessages } from '../i18n/team.js';

const alerts = (v: { error?: string | undefined; notice?: string | undefined }) =>
  html`${v.error ? html`<p class="error" id="link-error" role="alert">${v.error}</p>` : ''}${
    v.notice ? html`<p class="notice" id="link-notice" role="status">${v.notice}</p>` : ''
  }`;

const passwordFields = (l: ReturnType<typeof linkMessages>) =>
  html`<label for="password">${l.newPassword}</label><input id="password" name="password" type="password" autocomplete="new-password" required minlength="12" maxlength="1024">
<label for="confirm">${l.confirmPassword}</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" required minlength="12" maxlength="1024">`;

export function acceptInvitationView(v: {
  locale: Locale;
  csrfToken: string;
  action: string;
  merchantName: string;
  role: string;
  email: string;
  name?: string;
  error?: string;
}): SafeHtml {
  const l = linkMessages(v.locale);
  const [before, rest] = l.acceptIntro.split('{merchant}') as [string, string];
  const [middle, after] = rest.split('{role}') as [string, string];
  return html`<div class="card login"><h1>${l.acceptTitle}</h1>
<p id="invitation-intro">${before}<strong>${v.merchantName}</strong>${middle}<strong>${roleLabel(v.locale, v.role)}</strong>${after}</p>${alerts(v)}
<form method="post" action="${v.action}" id="accept-form">${csrfField(v.csrfToken)}
<label for="email">${t(v.locale).email}</label><input id="email" type="email" value="${v.email}" readonly autocomplete="username">
<label for="name">${l.yourName}</label><input id="name" name="name" required maxlength="100" autocomplete="name" value="${v.name ?? ''}">
${passwordFields(l)}
<p><button type="submit">${l.accept}</button></p></form></div>`;
}

export function goneLinkView(locale: Locale, message: string): SafeHtml {
  const l = linkMessages(locale);
  return html`<div class="card login"><h1>${l.goneTitle}</h1><p class="error" id="link-gone" role="alert">${message}</p>
<p><a href="/login">${l.toSignIn}</a></p></div>`;
}

export function resetRequestView(v: {
  locale: Locale;
  csrfToken: string;
  email?: string;
  error?: string;
  notice?: string;
}): SafeHtml {
  const l = linkMessages(v.locale);
  return html`<div class="card login"><h1>${l.resetTitle}</h1>${alerts(v)}<p>${l.resetIntro}</p>
<form method="post" action="/password-reset" id="reset-request-form">${csrfField(v.csrfToken)}
<label for="email">${t(v.locale).email}</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${v.email ?? ''}">
<p><button type="submit">${l.send}</button></p></form>
<p><a href="/login">${l.toSignIn}</a></p></div>`;
}

export function resetPasswordView(v: { locale: Locale; csrfToken: string; action: string; error?: string }): SafeHtml {
  const l = linkMessages(v.locale);
  return html`<div class="card login"><h1>${l.resetTitle}</h1>${alerts(v)}
<form method="post" action="${v.action}" id="reset-form">${csrfField(v.csrfToken)}
${passwordFields(l)}
<p><button type="submit">${l.setPassword}</button></p></form></div>`;
}

export function signUpView(v: {
  locale: Locale;
  csrfToken: string;
  countries: { countryCode: string; countryName: string }[];
  typed: { email?: string; business?: string; country?: string };
  error?: string;
}): SafeHtml {
  const l = linkMessages(v.locale);
  return html`<div class="card login"><h1>${l.signUpTitle}</h1><p>${l.signUpIntro}</p>${alerts(v)}
<form method="post" action="/signup" id="sign-up-form">${csrfField(v.csrfToken)}
<label for="email">${t(v.locale).email}</label><input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${v.typed.email ?? ''}">
<label for="business">${l.businessName}</label><input id="business" name="business" required maxlength="100" autocomplete="organization" value="${v.typed.business ?? ''}">
<label for="country">${l.country}</label><select id="country" name="country">${v.countries.map(
    (c) =>
      html`<option value="${c.countryCode}"${c.countryCode === v.typed.country ? html` selected` : ''}>${c.countryName}</option>`,
  )}</select>
<label for="name">${l.yourName}</label><input id="name" name="name" required maxlength="100" autocomplete="name">
${passwordFields(l)}
<p><button type="submit">${l.signUp}</button></p></form>
<p><a href="/login">${l.toSignIn}</a></p></div>`;
}

export function signedUpView(locale: Locale, key: { apiKey: string; apiSecret: string }): SafeHtml {
  const l = linkMessages(locale);
  return html`<h1>${l.signUpTitle}</h1><p class="notice" role="status">${l.signedUp}</p>
<dl class="fields" id="issued-key">
<dt>API key</dt><dd><code id="api-key">${key.apiKey}</code></dd>
<dt>API secret</dt><dd><code id="api-secret">${key.apiSecret}</code></dd>
</dl>
<p><a href="/">${l.toHome}</a></p>`;
}
