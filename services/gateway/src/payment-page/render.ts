import { formatCountdown } from './format.js';
import { failureText, MESSAGES, operatorName, pageState, type CodeNotice, type Lang, type PageState } from './i18n.js';

/**
 * What the customer must do, as the operator's acknowledgement said (transactions.customer_action);
 * null for a USSD push (or before the operator answered): the phone rings, the page only waits.
 */
export type PageAction =
  /** Pay on the operator's page: `url` is the one the operator gave, stored on the transaction. */
  | { type: 'REDIRECT'; url: string; operator: string }
  /** Dial `ussd` for a one-time code and type it in the page's form, posted to `formAction`. */
  | { type: 'OTP'; ussd: string; formAction: string; notice: CodeNotice | null };

/** What the page shows, and nothing more: the route builds it from the transaction row. */
export interface PageView {
  merchantName: string;
  amountText: string;
  maskedMsisdn: string;
  motif: string | null;
  status: string;
  failureCode: string | null;
  /** Seconds left before expiry while in flight; null hides the countdown. */
  remainingS: number | null;
  /** return_url with transaction_id and status, only in a terminal state. */
  redirectUrl: string | null;
  /** Shown while in flight only; absent or null: the USSD-push instruction. */
  action?: PageAction | null;
}

/** The JSON of GET /pay/:id/status. */
export interface StatusBody {
  status: string;
  failure_code?: string;
  redirect_url?: string;
  /** While in flight, the customer action the page must show (a page shown without it reloads to show it). */
  action?: 'REDIRECT' | 'OTP';
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

/** JSON safe to place inside an inline <script>. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export const isTerminalState = (s: PageState) =>
  s === 'SUCCESS' || s === 'FAILED' || s === 'EXPIRED' || s === 'REVERSED';

export function statusDetail(lang: Lang, status: string, failureCode: string | null): string {
  const k = pageState(status);
  const base = MESSAGES[lang].statusDetail[k];
  return k === 'FAILED' ? `${base} ${failureText(lang, failureCode)}` : base;
}

const CSS = `*{box-sizing:border-box}body{margin:0;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#111;background:#fff}
main{max-width:28rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}h1{font-size:1.25rem;margin:.25rem 0 1rem}
.k{color:#444;font-size:.875rem;margin:0}.v{margin:0 0 .75rem}.amount{font-size:2rem;font-weight:700;line-height:1.2}
.st{border-radius:.5rem;padding:.75rem 1rem;margin:1rem 0;border:2px solid}.st p{margin:.25rem 0 0}
.st-sending,.st-pending{background:#eef2ff;color:#1e3a8a;border-color:#1e3a8a}.st-success{background:#e7f5ec;color:#0b5d1e;border-color:#0b5d1e}
.st-failed{background:#fdecea;color:#8a1c12;border-color:#8a1c12}.st-expired,.st-reversed{background:#f3f4f6;color:#374151;border-color:#374151}
.cd{font-variant-numeric:tabular-nums;font-weight:700}a{color:#1e3a8a}#return{display:inline-block;padding:.75rem 0;font-weight:600}[hidden]{display:none}
.btn,button{display:block;width:100%;padding:.875rem 1rem;border:0;border-radius:.5rem;background:#1e3a8a;color:#fff;font:inherit;font-weight:700;text-align:center;text-decoration:none}
.ussd{font-size:1.5rem;font-weight:700;letter-spacing:.05em;margin:.25rem 0}label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input{display:block;width:100%;padding:.75rem;font:inherit;font-size:1.25rem;letter-spacing:.2em;border:2px solid #444;border-radius:.5rem;margin-bottom:.75rem}
.note{padding:.5rem .75rem;border-radius:.5rem;background:#eef2ff;color:#1e3a8a}.note.err{background:#fdecea;color:#8a1c12}`;

/** Polls the status endpoint every 3 s, counts down, and leaves for return_url 3 s after a terminal state. */
const SCRIPT = `(function(){var D=JSON.parse(document.getElementById('d').textContent);
function $(i){return document.getElementById(i)}var done=false,cur=null,url=location.pathname.replace(/\\/$/,'')+'/status';
function term(s){return s==='SUCCESS'||s==='FAILED'||s==='EXPIRED'||s==='REVERSED'}
function key(s){return term(s)||s==='PENDING'?s:'SENDING'}
function show(d){if(d.action&&d.action!==D.a){done=true;location.reload();return}cur=d.status;var k=key(d.status),e=$('status');e.className='st st-'+k.toLowerCase();e.setAttribute('data-status',d.status);$('st-t').textContent=D.t[k];
$('st-d').textContent=k==='FAILED'?D.d.FAILED+' '+(D.f[d.failure_code]||D.f.UNKNOWN):D.d[k];
if(!term(d.status))return;done=true;$('instr').hidden=true;if($('cd'))$('cd').hidden=true;
if(d.redirect_url){$('return').href=d.redirect_url;$('back').hidden=false;setTimeout(function(){location.replace(d.redirect_url)},3000)}}
function poll(){if(done)return;fetch(url,{cache:'no-store',credentials:'same-origin',headers:{Accept:'application/json'}})
.then(function(r){return r.ok?r.json():null}).then(function(d){if(d&&d.status&&d.status!==cur)show(d)},function(){})
.then(function(){if(!done)setTimeout(poll,3000)})}
var c=$('cd-v');if(c){var end=Date.now()+1000*Number(c.getAttribute('data-remaining'));(function tick(){if(done)return;
var s=Math.max(0,Math.round((end-Date.now())/1000));c.textContent=('0'+Math.floor(s/60)).slice(-2)+':'+('0'+s%60).slice(-2);
if(s>0)setTimeout(tick,1000)})()}
show(D.s);setTimeout(poll,3000)})();`;

export function shell(lang: Lang, nonce: string, title: string, head: string, body: string): string {
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>${head}
<style nonce="${escapeHtml(nonce)}">${CSS}</style></head>
<body><main>${body}</main></body></html>`;
}

/** The payment page. Pure: everything it shows comes from `view`, escaped. */
export function renderPage(view: PageView, lang: Lang, nonce: string): string {
  const m = MESSAGES[lang];
  const state = pageState(view.status);
  const terminal = isTerminalState(state);
  const redirect = terminal ? view.redirectUrl : null;
  // No refresh over the code form: it would wipe a half-typed code (posting it reloads the page anyway).
  const noscript = !terminal
    ? view.action?.type === 'OTP'
      ? ''
      : '<noscript><meta http-equiv="refresh" content="3"></noscript>'
    : redirect
      ? `<noscript><meta http-equiv="refresh" content="3;url=${escapeHtml(redirect)}"></noscript>`
      : '';
  const countdown =
    !terminal && view.remainingS !== null
      ? `<p id="cd" class="k">${escapeHtml(m.expiresIn)} <span id="cd-v" class="cd" data-remaining="${Math.max(0, Math.floor(view.remainingS))}">${formatCountdown(view.remainingS)}</span></p>`
      : '';
  const status: StatusBody = { status: view.status };
  if (state === 'FAILED') status.failure_code = view.failureCode ?? 'UNKNOWN';
  if (redirect) status.redirect_url = redirect;
  const action = terminal ? null : (view.action ?? null);
  if (action) status.action = action.type;
  const data = { s: status, t: m.statusTitle, d: m.statusDetail, f: m.failure, a: action?.type ?? null };
  const body = `<p class="k">${escapeHtml(m.payTo)}</p><h1>${escapeHtml(view.merchantName)}</h1>
<p class="k">${escapeHtml(m.amount)}</p><p class="v amount">${escapeHtml(view.amountText)}</p>
<p class="k">${escapeHtml(m.phone)}</p><p class="v">${escapeHtml(view.maskedMsisdn)}</p>
${view.motif ? `<p class="k">${escapeHtml(m.motif)}</p><p class="v">${escapeHtml(view.motif)}</p>\n` : ''}<div id="instr"${terminal ? ' hidden' : ''}>${instruction(lang, action)}</div>
${countdown}<div id="status" class="st st-${state.toLowerCase()}" data-status="${escapeHtml(view.status)}" role="status" aria-live="polite"><strong id="st-t">${escapeHtml(m.statusTitle[state])}</strong><p id="st-d">${escapeHtml(statusDetail(lang, view.status, view.failureCode))}</p></div>
<p id="back"${redirect ? '' : ' hidden'}><a id="return" href="${redirect ? escapeHtml(redirect) : '#'}">${escapeHtml(m.returnTo(view.merchantName))}</a><br><span class="k">${escapeHtml(m.redirecting)}</span></p>
<script type="application/json" id="d">${scriptJson(data)}</script>
<script nonce="${escapeHtml(nonce)}">${SCRIPT}</script>`;
  return shell(lang, nonce, m.htmlTitle(view.merchantName), noscript, body);
}

/** What the customer does, inside #instr (hidden with it once the payment is decided). */
function instruction(lang: Lang, action: PageAction | null): string {
  const m = MESSAGES[lang];
  if (!action) return `<p><strong>${escapeHtml(m.instruction)}</strong></p>`;
  if (action.type === 'REDIRECT') {
    return `<p>${escapeHtml(m.redirectIntro)}</p>
<p><a id="pay-op" class="btn" href="${escapeHtml(action.url)}" rel="noreferrer">${escapeHtml(m.payWith(operatorName(lang, action.operator)))}</a></p>`;
  }
  const notice = action.notice
    ? `<p id="code-notice" class="note${action.notice === 'sent' ? '' : ' err'}" role="${action.notice === 'sent' ? 'status' : 'alert'}">${escapeHtml(m.codeNotice[action.notice])}</p>\n`
    : '';
  return `<p>${escapeHtml(m.otpDial)}</p><p id="ussd" class="ussd">${escapeHtml(action.ussd)}</p><p>${escapeHtml(m.otpThen)}</p>
${notice}<form id="code-form" method="post" action="${escapeHtml(action.formAction)}"><label for="code">${escapeHtml(m.codeLabel)}</label>
<input id="code" name="code" type="text" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{4,8}" minlength="4" maxlength="8" required>
<button type="submit">${escapeHtml(m.codeSubmit)}</button></form>`;
}

export function renderNotFound(lang: Lang, nonce: string): string {
  const m = MESSAGES[lang];
  return shell(
    lang,
    nonce,
    m.notFoundTitle,
    '',
    `<h1>${escapeHtml(m.notFoundTitle)}</h1><p>${escapeHtml(m.notFoundText)}</p>`,
  );
}
