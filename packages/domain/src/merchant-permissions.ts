/**
 * Who among a merchant's own people may do what in the merchant portal. The portal checks
 * `merchantCan()` on the server for every route (a table-driven test walks every route with every role);
 * the navigation only hides what a role cannot use. docs/merchant-portal.md shows the same table.
 *
 * | permission        | owner | admin | developer | finance | viewer |
 * |-------------------|:-----:|:-----:|:---------:|:-------:|:------:|
 * | payments:read     |   x   |   x   |     x     |    x    |   x    |
 * | refunds:create    |   x   |   x   |           |    x    |        |
 * | cashouts:request  |   x   |   x   |           |    x    |        |
 * | statements:read   |   x   |   x   |           |    x    |        |
 * | links:manage      |   x   |   x   |           |    x    |        |
 * | developers:read   |   x   |   x   |     x     |         |        |
 * | keys:manage       |   x   |   x   |     x     |         |        |
 * | webhooks:manage   |   x   |   x   |     x     |         |        |
 * | team:read         |   x   |   x   |     x     |    x    |   x    |
 * | team:manage       |   x   |   x   |           |         |        |
 * | security:read     |   x   |   x   |           |         |        |
 * | security:manage   |   x   |       |           |         |        |
 *
 * Money leaves the merchant's balance by a refund or a cash-out: the people who answer for the money
 * (owner, admin, finance) decide those, not the developer who wires the API. Payment links (create,
 * deactivate) are the same people's: a link asks customers for money in the merchant's name; everyone
 * reads them (payments:read), and no money leaves, so no fresh code is asked. Keys and webhooks are the
 * developer's tools; finance and viewers never see a key. The team and the audit log are the owner's and
 * the admin's; only an owner may require two-factor sign-in of the whole team or make another owner.
 */

export const MERCHANT_ROLES = ['owner', 'admin', 'developer', 'finance', 'viewer'] as const;
export type MerchantRole = (typeof MERCHANT_ROLES)[number];

export const MERCHANT_PERMISSIONS = [
  'payments:read',
  'refunds:create',
  'cashouts:request',
  'statements:read',
  'links:manage',
  'developers:read',
  'keys:manage',
  'webhooks:manage',
  'team:read',
  'team:manage',
  'security:read',
  'security:manage',
] as const;
export type MerchantPermission = (typeof MERCHANT_PERMISSIONS)[number];

const EVERYONE: readonly MerchantPermission[] = ['payments:read', 'team:read'];
const MONEY: readonly MerchantPermission[] = ['refunds:create', 'cashouts:request', 'statements:read', 'links:manage'];
const DEVELOPER: readonly MerchantPermission[] = ['developers:read', 'keys:manage', 'webhooks:manage'];

const GRANTS: Readonly<Record<MerchantRole, ReadonlySet<MerchantPermission>>> = {
  owner: new Set(MERCHANT_PERMISSIONS),
  admin: new Set(MERCHANT_PERMISSIONS.filter((p) => p !== 'security:manage')),
  developer: new Set([...EVERYONE, ...DEVELOPER]),
  finance: new Set([...EVERYONE, ...MONEY]),
  viewer: new Set(EVERYONE),
};

/**
 * The actions that move money or change keys or webhooks: each asks for a fresh two-factor code,
 * whatever the team's sign-in setting, so a stolen session alone cannot move money or redirect webhooks.
 */
export const STEP_UP_PERMISSIONS: ReadonlySet<MerchantPermission> = new Set([
  'refunds:create',
  'cashouts:request',
  'keys:manage',
  'webhooks:manage',
]);

export function isMerchantRole(value: unknown): value is MerchantRole {
  return typeof value === 'string' && (MERCHANT_ROLES as readonly string[]).includes(value);
}

/** An unknown role (a bad row) is granted nothing: it fails closed. */
export function merchantCan(role: string, permission: MerchantPermission): boolean {
  return isMerchantRole(role) && GRANTS[role].has(permission);
}

export function merchantPermissionsOf(role: string): MerchantPermission[] {
  return MERCHANT_PERMISSIONS.filter((p) => merchantCan(role, p));
}

/**
 * A role's name in French or English, as the dashboard and its mails show it (an unknown role, a bad row,
 * shows as stored).
 */
const ROLE_NAMES = {
  en: { owner: 'Owner', admin: 'Admin', developer: 'Developer', finance: 'Finance', viewer: 'Viewer' },
  fr: {
    owner: 'Propriétaire',
    admin: 'Administrateur',
    developer: 'Développeur',
    finance: 'Finance',
    viewer: 'Lecteur',
  },
} as const satisfies Record<'fr' | 'en', Record<MerchantRole, string>>;

export function merchantRoleName(locale: 'fr' | 'en', role: string): string {
  return isMerchantRole(role) ? ROLE_NAMES[locale][role] : role;
}
