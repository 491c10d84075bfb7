/** `assertCompanyAccess` (foundation §6 tenant isolation) against a real database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { ForbiddenError } from '../../platform/http/errors.js';
import { addCompanyMember, assertCompanyAccess, isDeactivatedEverywhere, MANAGER_ROLES } from './companies.service.js';

let s: TestServer;
beforeAll(async () => { s = await startTestServer(); });
afterAll(async () => { await s?.close(); });

describe('assertCompanyAccess', () => {
  it('answers the role of a member, 403 for a stranger, a deactivated member, or a role outside the list', async () => {
    const a = await createAccount(s);
    const b = await createAccount(s);
    expect(await assertCompanyAccess(s.ctx, a.userId, a.companyId)).toBe('owner');
    await expect(assertCompanyAccess(s.ctx, a.userId, b.companyId)).rejects.toBeInstanceOf(ForbiddenError);
    await addCompanyMember(s.ctx, b.companyId, a.userId, 'reporting');
    expect(await assertCompanyAccess(s.ctx, a.userId, b.companyId)).toBe('reporting');
    await expect(assertCompanyAccess(s.ctx, a.userId, b.companyId, MANAGER_ROLES)).rejects.toMatchObject({ status: 403 });
    await addCompanyMember(s.ctx, b.companyId, a.userId, 'deactivated');
    await expect(assertCompanyAccess(s.ctx, a.userId, b.companyId)).rejects.toBeInstanceOf(ForbiddenError);
    // Still active in own company, so not deactivated everywhere.
    expect(await isDeactivatedEverywhere(s.ctx, a.userId)).toBe(false);
  });
});
