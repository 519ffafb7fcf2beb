/**
 * Who may change whom in a team, as plain functions of the facts (the route reads them under the team's
 * lock). Only an owner gives or takes the owner role; the team keeps an active owner; nobody changes their
 * own role or removes themselves, so a slip of the finger cannot lock the last admin out.
 */
import type { MerchantRole } from '@mm/domain';

export type TeamRefusal = 'only_owner_owner' | 'last_owner' | 'yourself';

interface Person {
  id: string;
  role: string;
}

export function invitationRefusal(actor: Person, role: MerchantRole): TeamRefusal | null {
  return role === 'owner' && actor.role !== 'owner' ? 'only_owner_owner' : null;
}

export function roleChangeRefusal(
  actor: Person,
  target: Person,
  role: MerchantRole,
  activeOwners: number,
): TeamRefusal | null {
  if (actor.id === target.id) return 'yourself';
  if ((role === 'owner' || target.role === 'owner') && actor.role !== 'owner') return 'only_owner_owner';
  if (target.role === 'owner' && role !== 'owner' && activeOwners <= 1) return 'last_owner';
  return null;
}

export function removalRefusal(actor: Person, target: Person, activeOwners: number): TeamRefusal | null {
  if (actor.id === target.id) return 'yourself';
  if (target.role === 'owner' && actor.role !== 'owner') return 'only_owner_owner';
  if (target.role === 'owner' && activeOwners <= 1) return 'last_owner';
  return null;
}
