import { csrfField, html, type SafeHtml } from '@mm/web';

export interface LoginView {
  csrfToken: string;
  email?: string;
  next?: string;
  error?: string;
  notice?: string;
}

/** The login form: fields `email` and `password`, button "Log in", error in #login-error. */
export function loginView(v: LoginView): SafeHtml {
  return html`<div class="card login">
<h1>Log in</h1>
${v.notice ? html`<p class="notice" id="login-notice">${v.notice}</p>` : ''}
${v.error ? html`<p class="error" id="login-error" role="alert">${v.error}</p>` : ''}
<form method="post" action="/login" id="login-form">
${csrfField(v.csrfToken)}
${v.next ? html`<input type="hidden" name="next" value="${v.next}">` : ''}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="254" value="${v.email ?? ''}" autofocus>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024">
<p><button type="submit">Log in</button></p>
</form>
</div>`;
}
