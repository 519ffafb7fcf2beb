/** The header's links, each shown only to a role holding the permission its page checks. */
import { merchantCan, type MerchantPermission } from '@mm/domain';
import type { Locale } from '../i18n/locale.js';
import { t } from '../i18n/messages.js';

export interface NavItem {
  id: string;
  href: string;
  label: string;
}

const ITEMS: readonly {
  id: string;
  href: string;
  permission: MerchantPermission;
  label: keyof ReturnType<typeof t>;
}[] = [
  { id: 'home', href: '/', permission: 'payments:read', label: 'home' },
  { id: 'payments', href: '/payments', permission: 'payments:read', label: 'payments' },
  { id: 'links', href: '/links', permission: 'payments:read', label: 'links' },
  { id: 'cashouts', href: '/cashouts', permission: 'cashouts:request', label: 'cashouts' },
  { id: 'statements', href: '/statements', permission: 'statements:read', label: 'statements' },
  { id: 'developers', href: '/developers', permission: 'developers:read', label: 'developers' },
  { id: 'team', href: '/team', permission: 'team:read', label: 'team' },
  { id: 'security', href: '/security', permission: 'security:read', label: 'security' },
];

/** The pages whose routers exist; an area not built yet stays out of the header. */
const BUILT: ReadonlySet<string> = new Set([
  'home',
  'payments',
  'developers',
  'security',
  'cashouts',
  'statements',
  'team',
  'links',
  // one line per area, as its router is mounted in app.ts
]);

export function navFor(role: string, locale: Locale): NavItem[] {
  const m = t(locale);
  return ITEMS.filter((i) => BUILT.has(i.id) && merchantCan(role, i.permission)).map((i) => ({
    id: i.id,
    href: i.href,
    label: m[i.label],
  }));
}
