/**
 * Role labels of the users screens (docs/accounts.md; roles of spec 000 §6). Labels only: what a role may do is the
 * matrix's (`useCan` / `can` in lib/access.ts, docs/permissions.md), never a list here.
 */
import type { Infer, AssignableRoleSchema } from '@switchboard/contracts';

export type AssignableRole = Infer<typeof AssignableRoleSchema>;

export const ROLE_LABELS: Record<string, string> = {
  owner: 'Owner',
  administrator: 'Administrator',
  billing: 'Billing',
  reporting: 'Reporting',
  user: 'User',
  deactivated: 'Deactivated',
};
