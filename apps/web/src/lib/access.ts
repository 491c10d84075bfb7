/**
 * What the signed-in person may do in the selected company, from their role there and the one
 * role → ability matrix the server enforces (`@switchboard/domain` ABILITY_MATRIX; docs/permissions.md).
 * The web only hides what a role cannot use; the server refuses it anyway (403).
 *
 *   const canBuy = useCan('numbers.purchase');
 *   {canBuy && <Button>Buy numbers</Button>}
 */
import { roleCan, type Ability, type Role } from '@switchboard/domain';
import { useSession, type SessionState } from './session';

/** The person's role in the selected company, or null (signed out, no company, not a member). */
export function roleInCompany(session: Pick<SessionState, 'user' | 'companyId'>): Role | null {
  const company = session.user?.companies.find((c) => c.id === session.companyId);
  return company?.role ?? null;
}

/** True when the person's role in the selected company has `ability` (false while unknown and for `deactivated`). */
export function can(session: Pick<SessionState, 'user' | 'companyId'>, ability: Ability): boolean {
  return roleCan(roleInCompany(session), ability);
}

/** React: the person's role in the selected company, or null. */
export function useRole(): Role | null {
  return roleInCompany(useSession());
}

/** React: whether the person may use `ability` in the selected company (re-renders on a company switch). */
export function useCan(ability: Ability): boolean {
  return can(useSession(), ability);
}
