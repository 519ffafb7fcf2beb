import type { Push } from './push-store.js';

/** Keeps the country prefix and the two scenario digits visible: enough to recognise a test number on screen. */
export function maskMsisdn(msisdn: string): string {
  if (msisdn.length <= 6) return msisdn;
  return `${msisdn.slice(0, 4)}${'*'.repeat(msisdn.length - 6)}${msisdn.slice(-2)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const E164 = /^\+[1-9]\d{7,14}$/;

/**
 * The number typed in the phone page's form, as E.164, or null when it is not one. Tolerates spaces and a
 * missing '+' (a '+' typed by hand in a URL arrives as a space).
 */
export function parsePhoneNumber(raw: string): string | null {
  const compact = raw.replace(/[\s.-]/g, '');
  const withPlus = compact.startsWith('+') ? compact : `+${compact}`;
  return E164.test(withPlus) ? withPlus : null;
}

/** A secret code as the phone accepts it: exactly 4 digits. */
export const SECRET_CODE = /^\d{4}$/;

const action = (push: Push, verb: string, msisdn?: string) =>
  `/sandbox/payments/${encodeURIComponent(push.partnerReference)}/${verb}?then=phone${msisdn ? `&msisdn=${encodeURIComponent(msisdn)}` : ''}`;

function pushCard(push: Push): string {
  return `<li class="push">
  <p class="amount">${escapeHtml(String(push.amount))} ${escapeHtml(push.currency)}</p>
  <p class="msisdn">${escapeHtml(maskMsisdn(push.msisdn))}</p>
  <p class="motif">${escapeHtml(push.motif ?? '')}</p>
  <form method="post" action="${escapeHtml(action(push, 'confirm'))}"><button type="submit" name="confirm">Confirm</button></form>
  <form method="post" action="${escapeHtml(action(push, 'decline'))}"><button type="submit" name="decline">Decline</button></form>
</li>`;
}

/** One USSD prompt on the number's screen: what it asks, a secret code field, and Decline. */
function promptCard(push: Push, msisdn: string): string {
  const id = `code-${push.partnerReference.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  return `<li class="push prompt" data-reference="${escapeHtml(push.partnerReference)}">
  <p class="ussd">Payment request</p>
  <p class="amount">${escapeHtml(String(push.amount))} ${escapeHtml(push.currency)}</p>
  <dl>
    <dt>Motif</dt><dd class="motif">${escapeHtml(push.motif ?? '-')}</dd>
    <dt>Merchant reference</dt><dd class="reference">${escapeHtml(push.partnerReference)}</dd>
  </dl>
  <form class="confirm" method="post" action="${escapeHtml(action(push, 'confirm', msisdn))}">
    <label for="${escapeHtml(id)}">Secret code (4 digits)</label>
    <input id="${escapeHtml(id)}" name="code" type="password" inputmode="numeric" pattern="[0-9]{4}" minlength="4" maxlength="4" required autocomplete="off">
    <button type="submit" name="send">Send</button>
  </form>
  <form class="decline" method="post" action="${escapeHtml(action(push, 'decline', msisdn))}"><button type="submit" name="decline">Decline</button></form>
</li>`;
}

/** How an answered push reads on the phone. */
export function resultText(push: Push): string {
  if (push.state === 'OK') return 'Confirmed';
  if (push.state === 'canceled' && push.failure_reason === '00017') return 'Wrong secret code';
  if (push.state === 'canceled' && push.failure_reason === null) return 'Declined';
  if (push.state === 'canceled') return `Cancelled (${push.failure_reason})`;
  return push.state;
}

function recentItem(push: Push): string {
  return `<li class="recent" data-reference="${escapeHtml(push.partnerReference)}" data-state="${escapeHtml(push.state)}">${escapeHtml(String(push.amount))} ${escapeHtml(push.currency)} - ${escapeHtml(push.partnerReference)}: <strong>${escapeHtml(resultText(push))}</strong></li>`;
}

function numberForm(value: string): string {
  return `<form class="number" method="get" action="/phone">
  <label for="msisdn">Phone number (E.164, e.g. +2250707000055)</label>
  <input id="msisdn" name="msisdn" type="tel" autocomplete="off" required value="${escapeHtml(value)}">
  <button type="submit">Open</button>
</form>`;
}

function shell(title: string, refreshS: number | null, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
${refreshS === null ? '' : `<meta http-equiv="refresh" content="${refreshS}">\n`}<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 24rem; margin: 1rem auto; padding: 0 .75rem; }
  ul { list-style: none; padding: 0; }
  .push { border: 1px solid #ccc; border-radius: .5rem; padding: .5rem 1rem; margin-bottom: 1rem; }
  .amount { font-size: 1.4rem; font-weight: bold; }
  .ussd { margin: 0; color: #555; }
  dl { margin: 0 0 .5rem; } dt { font-size: .85rem; color: #555; } dd { margin: 0 0 .25rem; overflow-wrap: anywhere; }
  form { display: inline; }
  form.confirm, form.number { display: block; margin-bottom: .5rem; }
  label { display: block; font-size: .9rem; margin-bottom: .25rem; }
  input { font-size: 1.2rem; padding: .3rem; width: 8rem; }
  form.number input { width: 12rem; }
  button { font-size: 1rem; padding: .4rem .8rem; }
  .error { color: #8a1c12; }
</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** The virtual phone without a number: every push still waiting for the customer, each with Confirm / Decline. */
export function renderPhonePage(pushes: readonly Push[]): string {
  const pending = pushes.filter((p) => p.state === 'PENDING' && !p.awaitingCode);
  const body =
    pending.length === 0
      ? '<p class="empty">No payment request waiting.</p>'
      : `<ul>${pending.map(pushCard).join('\n')}</ul>`;
  // Refresh so a push made from another window shows up without touching the page.
  return shell(
    'Virtual phone - operator simulator',
    5,
    `<h1>Payment requests</h1>
${numberForm('')}
${body}`,
  );
}

export const RECENT_ANSWERS_SHOWN = 3;

/**
 * The virtual phone of one number: the USSD prompts pushed to it, each with a secret code field and Decline,
 * and its last answered pushes. Refreshes every 3 s only while a prompt is pending.
 */
export function renderNumberPage(pushes: readonly Push[], msisdn: string): string {
  // A push the operator rejected opened no USSD session: nothing ever reached the phone.
  const mine = pushes.filter((p) => p.msisdn === msisdn && p.sessionId !== null);
  // A one-time-code payment rings the phone only once its code has arrived (scenarios.ts).
  const pending = mine.filter((p) => p.state === 'PENDING' && !p.awaitingCode);
  const answered = mine
    .filter((p) => p.state !== 'PENDING')
    .slice(-RECENT_ANSWERS_SHOWN)
    .reverse();
  const prompts =
    pending.length === 0
      ? '<p class="empty">No payment request waiting.</p>'
      : `<ul class="prompts">${pending.map((p) => promptCard(p, msisdn)).join('\n')}</ul>`;
  const recent =
    answered.length === 0 ? '' : `<h2>Recent</h2>\n<ul class="recents">${answered.map(recentItem).join('\n')}</ul>`;
  // Refresh while waiting for a prompt to arrive, never while one is shown: a reload would wipe a
  // half-typed secret code.
  return shell(
    `Virtual phone ${msisdn}`,
    pending.length === 0 ? 3 : null,
    `<h1>Phone <span class="number">${escapeHtml(msisdn)}</span></h1>
${numberForm(msisdn)}
${prompts}
${recent}
<p><a href="/phone">All pending requests</a></p>`,
  );
}

/** The number form again, with what was wrong. */
export function renderPhoneError(message: string, value: string): string {
  return shell(
    'Virtual phone - operator simulator',
    null,
    `<h1>Virtual phone</h1>
<p class="error" role="alert">${escapeHtml(message)}</p>
${numberForm(value)}`,
  );
}

/** Without the sandbox token: how to get in (the link `pnpm start` prints carries it). */
export function renderPhoneLocked(): string {
  return shell(
    'Virtual phone - operator simulator',
    null,
    `<h1>Virtual phone</h1>
<p class="error" role="alert">The sandbox needs its token. Open the virtual phone link that <code>pnpm start</code> prints (it ends with <code>?token=…</code>), or send <code>Authorization: Bearer &lt;SIM_SANDBOX_TOKEN&gt;</code>.</p>`,
  );
}
