import type { Push } from './push-store.js';

/** Keeps the country prefix and the two scenario digits visible: enough to recognise a test number on screen. */
export function maskMsisdn(msisdn: string): string {
  if (msisdn.length <= 6) return msisdn;
  return `${msisdn.slice(0, 4)}${'*'.repeat(msisdn.length - 6)}${msisdn.slice(-2)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function pushCard(push: Push): string {
  const action = (verb: string) => `/sandbox/payments/${encodeURIComponent(push.partnerReference)}/${verb}?then=phone`;
  return `<li class="push">
  <p class="amount">${escapeHtml(String(push.amount))} ${escapeHtml(push.currency)}</p>
  <p class="msisdn">${escapeHtml(maskMsisdn(push.msisdn))}</p>
  <p class="motif">${escapeHtml(push.motif ?? '')}</p>
  <form method="post" action="${escapeHtml(action('confirm'))}"><button type="submit" name="confirm">Confirm</button></form>
  <form method="post" action="${escapeHtml(action('decline'))}"><button type="submit" name="decline">Decline</button></form>
</li>`;
}

/** The virtual phone: every push still waiting for the customer, each with Confirm / Decline. */
export function renderPhonePage(pushes: readonly Push[]): string {
  const pending = pushes.filter((p) => p.state === 'PENDING');
  const body = pending.length === 0 ? '<p class="empty">No payment request waiting.</p>' : `<ul>${pending.map(pushCard).join('\n')}</ul>`;
  // Refresh so a push made from another window shows up without touching the page.
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="refresh" content="5">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Virtual phone - operator simulator</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 24rem; margin: 1rem auto; }
  ul { list-style: none; padding: 0; }
  .push { border: 1px solid #ccc; border-radius: .5rem; padding: .5rem 1rem; margin-bottom: 1rem; }
  .amount { font-size: 1.4rem; font-weight: bold; }
  form { display: inline; }
</style>
</head>
<body>
<h1>Payment requests</h1>
${body}
</body>
</html>
`;
}
