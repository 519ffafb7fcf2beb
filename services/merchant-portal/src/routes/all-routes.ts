/** Every route rule of the portal, for the route × role test: each area's list, as app.ts mounts its router. */
import { ACCOUNT_ROUTES } from './account.js';
import { CASHOUTS_ROUTES } from './cashouts.js';
import { DEVELOPERS_ROUTES } from './developers.js';
import { HOME_ROUTES } from './home.js';
import { LINKS_ROUTES } from './links.js';
import { PAYMENTS_ROUTES } from './payments.js';
import type { RouteRule } from './route-rules.js';
import { SECURITY_ROUTES } from './security.js';
import { STATEMENTS_ROUTES } from './statements.js';
import { TEAM_ROUTES } from './team.js';

export const ALL_ROUTES: readonly RouteRule[] = [
  ...HOME_ROUTES,
  ...PAYMENTS_ROUTES,
  ...ACCOUNT_ROUTES,
  ...SECURITY_ROUTES,
  ...DEVELOPERS_ROUTES,
  ...CASHOUTS_ROUTES,
  ...LINKS_ROUTES,
  ...STATEMENTS_ROUTES,
  ...TEAM_ROUTES,
];
