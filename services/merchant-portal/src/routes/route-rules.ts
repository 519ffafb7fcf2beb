/**
 * What each portal route asks of its user, declared next to the router that serves it: the route × role
 * test (route-roles.test.ts) walks every rule with every role, so a route missing here, or guarded
 * differently from what it declares, fails a test.
 */
import type { MerchantPermission } from '@mm/domain';

export interface RouteRule {
  method: 'GET' | 'POST';
  /** The full path as a browser asks for it; `:id` stands for an id the test fills in (any uuid). */
  path: string;
  /** The permission its guard checks; null: any signed-in user (their own account, sign-out). */
  permission: MerchantPermission | null;
}
