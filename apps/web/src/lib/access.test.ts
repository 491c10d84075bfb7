/** What the web shows a role (lib/access.ts): the role in the selected company through the domain's matrix. */
import { describe, expect, it } from 'vitest';
import { can, roleInCompany } from './access';
import type { SessionState } from './session';

const user = {
  companies: [
    { id: 1, name: 'Acme', role: 'reporting' as const },
    { id: 2, name: 'Beta', role: 'owner' as const },
    { id: 3, name: 'Gone', role: 'deactivated' as const },
  ],
} as unknown as SessionState['user'];

describe('can', () => {
  it('reads the role of the selected company', () => {
    expect(roleInCompany({ user, companyId: 1 })).toBe('reporting');
    expect(can({ user, companyId: 1 }, 'reports.read')).toBe(true);
    expect(can({ user, companyId: 1 }, 'numbers.purchase')).toBe(false);
    expect(can({ user, companyId: 1 }, 'inbox.read')).toBe(false);
    // Switching company switches what the same person may do.
    expect(can({ user, companyId: 2 }, 'numbers.purchase')).toBe(true);
    expect(can({ user, companyId: 2 }, 'billing.manage')).toBe(true);
  });

  it('allows nothing when deactivated, signed out, or without a company', () => {
    expect(can({ user, companyId: 3 }, 'company.read')).toBe(false);
    expect(can({ user: null, companyId: 1 }, 'company.read')).toBe(false);
    expect(can({ user, companyId: null }, 'company.read')).toBe(false);
    expect(can({ user, companyId: 99 }, 'company.read')).toBe(false);
  });
});
