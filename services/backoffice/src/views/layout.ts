import type { StaffAccount } from '@mm/db/staff';
import { csrfField, documentShell, html, raw, type SafeHtml } from '@mm/web';
import { navFor } from './nav.js';

export interface LayoutInput {
  title: string;
  body: SafeHtml;
  /** The logged-in staff member, or null on the login and error pages of anonymous visitors. */
  staff: StaffAccount | null;
  /** Needed when staff is set: the logout form is a POST. */
  csrfToken: string | null;
  /** The CSP nonce of this response, allowing the inline style below and nothing else. */
  nonce: string;
  /** The request path, to mark the current nav entry. */
  path: string;
}

// The back-office's rules after the shared ones (BASE_CSS): the home page's blocks, the header's role badge.
const CSS = `
header .badge{background:#e6ebf1;color:#1d2430}
.scroll table{min-width:36rem}
.tiles{display:flex;flex-wrap:wrap;gap:.8rem}
.tile{flex:1 1 10rem;background:#fff;border:1px solid #dde3ea;border-radius:6px;padding:.8rem 1rem}
.tile.alert{border-color:#f3c1c3}
.tile>a{text-decoration:none;display:block}
.tile .n{display:block;font-size:1.6rem;font-weight:600}
.tile ul{margin:.4rem 0 0;padding-left:1.1rem;font-size:.9em}
`;

/** The page around every back-office screen. Every value is escaped by `html`. */
export function layout(input: LayoutInput): SafeHtml {
  const { staff } = input;
  const header = staff
    ? html`<header>
  <span class="brand">Back-office</span>
  <nav aria-label="Main">${navFor(staff.role).map((item) => {
    const current =
      item.href === '/' ? input.path === '/' : input.path === item.href || input.path.startsWith(`${item.href}/`);
    return html`<a href="${item.href}" data-nav="${item.id}"${current ? raw(' aria-current="page"') : ''}>${item.label}</a>`;
  })}</nav>
  <span class="who"><span id="staff-email">${staff.email}</span> <span class="badge" id="staff-role">${staff.role}</span>
    <form method="post" action="/logout" class="inline">${csrfField(input.csrfToken ?? '')}<button type="submit" class="secondary">Log out</button></form>
  </span>
</header>`
    : html`<header><span class="brand">Back-office</span></header>`;
  return documentShell({
    lang: 'en',
    title: input.title,
    siteName: 'Back-office',
    nonce: input.nonce,
    css: CSS,
    header,
    body: input.body,
  });
}
