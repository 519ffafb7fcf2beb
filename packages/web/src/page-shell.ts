import { html, raw, type SafeHtml } from './html.js';

// Plain, readable, no framework, nothing fetched from elsewhere: tables and forms are the whole UI.
// Both apps' pages share it, so they look and behave alike; each app appends its own rules. On a phone
// every table scrolls inside its own box, so a wide table never widens the page.
export const BASE_CSS = `*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1d2430;background:#f4f6f9}
header{display:flex;align-items:center;gap:1.5rem;padding:.6rem 1.2rem;background:#1d2a3a;color:#fff;flex-wrap:wrap}
header .brand{font-weight:600;letter-spacing:.02em}
header nav{display:flex;gap:.2rem;flex:1;flex-wrap:wrap}
header nav a{color:#cfd8e3;text-decoration:none;padding:.3rem .6rem;border-radius:4px}
header nav a[aria-current=page],header nav a:hover{background:#2f4257;color:#fff}
header .who{font-size:.9em;color:#cfd8e3;display:flex;align-items:center;gap:.6rem}
header .who form{margin:0}
main{max-width:1200px;margin:1.5rem auto;padding:0 1.2rem}
h1{font-size:1.4rem;margin:0 0 1rem}
table{width:100%;border-collapse:collapse;background:#fff;border:1px solid #dde3ea}
th,td{text-align:left;padding:.45rem .6rem;border-bottom:1px solid #e8ecf1;vertical-align:top}
th{background:#eef2f6;font-weight:600;font-size:.9em}
form.inline{display:inline;margin:0}
label{display:block;margin:.7rem 0 .2rem;font-weight:500}
input,select,textarea{font:inherit;padding:.4rem .5rem;border:1px solid #b9c3cf;border-radius:4px;width:100%;max-width:24rem}
button{font:inherit;padding:.4rem .9rem;border:1px solid #2f4257;border-radius:4px;background:#2f4257;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#2f4257}
button.danger{background:#a4262c;border-color:#a4262c}
.card{background:#fff;border:1px solid #dde3ea;border-radius:6px;padding:1.2rem;max-width:26rem}
.login{margin:8vh auto}
.error{color:#a4262c;background:#fdecec;border:1px solid #f3c1c3;padding:.5rem .7rem;border-radius:4px}
.notice{color:#1f5132;background:#e7f5ec;border:1px solid #b9e0c6;padding:.5rem .7rem;border-radius:4px}
.muted{color:#5f6b7a}
.badge{display:inline-block;padding:0 .45rem;border-radius:3px;font-size:.85em;background:#e6ebf1}
.badge.off{background:#fdecec;color:#a4262c}
.badge.ok{background:#e7f5ec;color:#1f5132}
h2{font-size:1.15rem;margin:1.6rem 0 .6rem}
form.filters{display:flex;flex-wrap:wrap;gap:0 1rem;align-items:flex-end;margin:0 0 1rem}
form.filters>div{flex:1 1 12rem}
form.filters input,form.filters select{max-width:none}
input[type=checkbox]{width:auto}
pre.json{margin:0;white-space:pre-wrap;word-break:break-word;font-size:.85em}
dl.fields{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1.2rem;background:#fff;border:1px solid #dde3ea;padding:1rem;margin:0}
dl.fields dt{font-weight:600}
dl.fields dd{margin:0;min-width:0;overflow-wrap:anywhere}
h1{overflow-wrap:anywhere}
ul.detail{margin:.3rem 0 0;padding-left:1.1rem}
.pager{margin:1rem 0}
.scroll{overflow-x:auto;max-width:100%}
/* table.cards: on a phone each row is a card of labelled fields (td[data-label]) instead of a table scrolled sideways. */
p code,li code{overflow-wrap:anywhere}
@media (max-width:640px){main{margin:1rem auto;padding:0 .7rem}header{gap:.6rem;padding:.5rem .7rem}th,td{padding:.35rem .4rem}table{display:block;overflow-x:auto}dl.fields{grid-template-columns:minmax(0,1fr);gap:0}dl.fields dd{margin-bottom:.5rem}table.cards,table.cards tbody,table.cards tr,table.cards td{display:block}table.cards thead{display:none}table.cards tr{border-bottom:1px solid #dde3ea;padding:.3rem 0}table.cards td[data-label]::before{content:attr(data-label);display:block;font-size:.8em;color:#5f6b7a}}
`;

export interface ShellInput {
  /** The page's language (`en`, `fr`): the `lang` attribute. */
  lang: string;
  title: string;
  /** After the title, in the window's title: "Back-office", "Merchant dashboard". */
  siteName: string;
  /** The CSP nonce of this response, allowing the inline style below and nothing else. */
  nonce: string;
  /** The app's own rules, after BASE_CSS. */
  css: string;
  header: SafeHtml;
  body: SafeHtml;
}

/** The document around every page of a web app. Every value is escaped by `html`. */
export function documentShell(input: ShellInput): SafeHtml {
  return html`<!doctype html>
<html lang="${input.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="same-origin">
<title>${input.title} · ${input.siteName}</title>
<style nonce="${input.nonce}">${raw(BASE_CSS + input.css)}</style>
</head>
<body>
${input.header}
<main id="main">
${input.body}
</main>
</body>
</html>`;
}
