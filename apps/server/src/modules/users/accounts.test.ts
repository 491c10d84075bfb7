/**
 * Accounts through the real HTTP API (docs/accounts.md): invitations (accepted once, expired after
 * their time, resent), member roles and activation, organizations with their accounts, account
 * status (parked, deactivated), org-administrator removal detaching, bulk account update, the slim
 * switcher list, 422s and another company's ids.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, uniqueEmail, type Account } from '../../../test/fixtures.js';
import { eventually, IpClient, startTestServer, type TestServer } from '../../../test/harness.js';
import { companyServiceState } from '../companies/accounts.service.js';
import { numberAssignees } from './members.service.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

/** The newest invitation token mailed to `email` (read from the recorded mail). */
async function tokenFor(email: string): Promise<string> {
  const [mail] = await s.ctx.mailer.outbox(5, email);
  expect(mail, `no mail to ${email}`).toBeDefined();
  const m = /accept-invitation\?token=([^\s"&]+)/.exec(mail!.text_body);
  expect(m).not.toBeNull();
  return decodeURIComponent(m![1]!);
}

async function signedIn(email: string, password: string): Promise<IpClient> {
  const c = new IpClient(s.url);
  await c.signIn(email, password);
  return c;
}

/** Invites `email` as `role` into `owner`'s company and accepts the link; the new person's client and id. */
async function join(owner: Account, role: string, email = uniqueEmail('member')): Promise<{ client: IpClient; userId: number; email: string }> {
  const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email, role });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  const anon = new IpClient(s.url);
  await anon.get('/api/csrf-cookie');
  const a = await anon.post(`/api/invitations/${await tokenFor(email)}/accept`, { first_name: 'Nia', last_name: 'Member', password: 'member-password-1' });
  expect(a.status, JSON.stringify(a.body)).toBe(200);
  const client = await signedIn(email, 'member-password-1');
  const me = await client.get('/api/user');
  return { client, userId: me.body.id, email };
}

describe('invitations', () => {
  it('an invitation is mailed, previewed, accepted once; the invitee signs in with the invited role only', async () => {
    const owner = await createAccount(s, { companyName: 'Invite Co' });
    const email = uniqueEmail('invitee');
    const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: email.toUpperCase(), role: 'user', first_name: 'Ivy' });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body).toMatchObject({ message: 'Invitation was successfully sent', added: false, data: { email, role: 'user', expired: false, sent_count: 1 } });
    // Expires 7 days ahead (± a minute).
    expect(Math.abs(Date.parse(r.body.data.expires_at) - Date.now() - 7 * 86_400_000)).toBeLessThan(60_000);
    const token = await tokenFor(email);

    const anon = new IpClient(s.url);
    await anon.get('/api/csrf-cookie');
    const preview = await anon.get(`/api/invitations/${token}`);
    expect(preview.status).toBe(200);
    expect(preview.body.data).toMatchObject({ email, company_name: 'Invite Co', role: 'user', invited_by: 'Test User', first_name: 'Ivy' });

    const short = await anon.post(`/api/invitations/${token}/accept`, { first_name: 'Ivy', last_name: 'Invitee', password: 'short' });
    expect(short.status).toBe(422);
    expect(short.body.errors.password).toBeDefined();

    const ok = await anon.post(`/api/invitations/${token}/accept`, {
      first_name: 'Ivy',
      last_name: 'Invitee',
      password: 'invitee-password-1',
      password_confirmation: 'invitee-password-1',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ message: 'Welcome to Invite Co. You are signed in.', email, company_id: owner.companyId, signed_in: true });
    // Single use.
    expect((await anon.post(`/api/invitations/${token}/accept`, { first_name: 'X', last_name: 'Y', password: 'another-password-1' })).status).toBe(404);
    expect((await anon.get(`/api/invitations/${token}`)).status).toBe(404);

    const invitee = await signedIn(email, 'invitee-password-1');
    const me = await invitee.get('/api/user');
    expect(me.body.companies).toEqual([{ id: owner.companyId, name: 'Invite Co', role: 'user' }]);
    // A `user` does not manage users.
    expect((await invitee.get(`/api/users?company_id=${owner.companyId}`)).status).toBe(403);
    expect((await invitee.post(`/api/companies/${owner.companyId}/invitations`, { email: uniqueEmail(), role: 'user' })).status).toBe(403);

    const members = await owner.client.get(`/api/users?company_id=${owner.companyId}`);
    expect(members.status).toBe(200);
    expect(members.body.data.map((m: { email: string; role: string }) => [m.email, m.role]).sort()).toEqual(
      [
        [owner.email, 'owner'],
        [email, 'user'],
      ].sort(),
    );
    expect((await owner.client.get(`/api/companies/${owner.companyId}/invitations`)).body.data).toEqual([]);
  });

  it('an expired link answers 410; resending makes a new link (the old one stops working) with "Invitation was successfully resent"', async () => {
    const owner = await createAccount(s);
    const email = uniqueEmail('late');
    const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email, role: 'reporting' });
    const oldToken = await tokenFor(email);
    await sql`update invitations set expires_at = now() - interval '1 second' where id = ${r.body.data.id}`.execute(s.ctx.db);
    const anon = new IpClient(s.url);
    await anon.get('/api/csrf-cookie');
    expect((await anon.get(`/api/invitations/${oldToken}`)).status).toBe(410);
    const late = await anon.post(`/api/invitations/${oldToken}/accept`, { first_name: 'L', last_name: 'Ate', password: 'late-password-1' });
    expect(late.status).toBe(410);
    expect(late.body.message).toBe('This invitation has expired. Ask for a new one.');
    const listed = await owner.client.get(`/api/companies/${owner.companyId}/invitations`);
    expect(listed.body.data).toEqual([expect.objectContaining({ id: r.body.data.id, expired: true })]);

    const resent = await owner.client.post(`/api/companies/${owner.companyId}/invitations/${r.body.data.id}/resend`);
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ message: 'Invitation was successfully resent', data: { expired: false, sent_count: 2 } });
    const newToken = await tokenFor(email);
    expect(newToken).not.toBe(oldToken);
    expect((await anon.get(`/api/invitations/${oldToken}`)).status).toBe(404);
    const ok = await anon.post(`/api/invitations/${newToken}/accept`, { first_name: 'L', last_name: 'Ate', password: 'late-password-1' });
    expect(ok.status).toBe(200);
    expect((await (await signedIn(email, 'late-password-1')).get('/api/user')).body.companies[0].role).toBe('reporting');
  });

  it('an existing user is added at once; twice is a 422; bad input 422; another company 403; a foreign invitation 404', async () => {
    const owner = await createAccount(s);
    const other = await createAccount(s);
    const added = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: other.email, role: 'billing' });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({ added: true, data: { id: other.userId, role: 'billing', active: true } });
    expect((await s.ctx.mailer.outbox(1, other.email))[0]!.subject).toContain('You now have access to');
    const again = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: other.email, role: 'user' });
    expect(again.status).toBe(422);
    expect(again.body.errors.email).toEqual(['This person is already a user of this account.']);

    const bad = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: 'not-an-email', role: 'wizard' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['email', 'role']);
    // Numbers of another company (as the numbers module's registered check answers) are refused.
    s.ctx.hooks.provide('companyNumbers', async (_ctx, _companyId, ids) => ids.filter((n) => n !== 999999999));
    const foreignNumber = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, {
      email: uniqueEmail(),
      role: 'user',
      numbers: [999999999],
    });
    expect(foreignNumber.status).toBe(422);
    expect(foreignNumber.body.errors.numbers).toEqual(['The selected numbers are invalid.']);

    const pending = await other.client.post(`/api/companies/${other.companyId}/invitations`, { email: uniqueEmail('x'), role: 'user' });
    expect(pending.status).toBe(201);
    // owner is not a member of other's company.
    expect((await owner.client.get(`/api/companies/${other.companyId}/invitations`)).status).toBe(403);
    expect((await owner.client.post(`/api/companies/${other.companyId}/invitations`, { email: uniqueEmail(), role: 'user' })).status).toBe(403);
    // other's invitation id through owner's own company: not found.
    expect((await owner.client.post(`/api/companies/${owner.companyId}/invitations/${pending.body.data.id}/resend`)).status).toBe(404);
    expect((await owner.client.delete(`/api/companies/${owner.companyId}/invitations/${pending.body.data.id}`)).status).toBe(404);
    const cancelled = await other.client.delete(`/api/companies/${other.companyId}/invitations/${pending.body.data.id}`);
    expect(cancelled.body.message).toBe('Invitation was successfully cancelled');
  });
});

describe('members: roles, activation, removal', () => {
  it('roles list; role changes keep one owner; only an owner touches owners; deactivate keeps the role for activation', async () => {
    const owner = await createAccount(s);
    const roles = await owner.client.get('/api/roles');
    expect(roles.body.data.map((r: { value: string }) => r.value)).toEqual(['owner', 'administrator', 'billing', 'reporting', 'user', 'deactivated']);

    const admin = await join(owner, 'administrator');
    const member = await join(owner, 'user');
    const base = `/api/companies/${owner.companyId}/users`;

    // An administrator cannot make an owner nor touch the owner.
    expect((await admin.client.put(`${base}/${member.userId}`, { role: 'owner' })).status).toBe(403);
    expect((await admin.client.post(`${base}/${owner.userId}/deactivate`)).status).toBe(403);
    // Own role / self: 422.
    expect((await owner.client.put(`${base}/${owner.userId}`, { role: 'user' })).status).toBe(422);
    expect((await owner.client.put(`${base}/${member.userId}`, { role: 'pilot' })).status).toBe(422);

    const changed = await admin.client.put(`${base}/${member.userId}`, { role: 'reporting' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ message: 'Information updated successfully', data: { role: 'reporting' } });

    const off = await admin.client.post(`${base}/${member.userId}/deactivate`);
    expect(off.body.data).toMatchObject({ role: 'deactivated', active: false });
    // Deactivated in their only account: cannot sign in.
    const refused = new IpClient(s.url);
    await refused.get('/api/csrf-cookie');
    expect((await refused.post('/api/sanctum/login', { email: member.email, password: 'member-password-1' })).status).toBe(422);
    const on = await admin.client.post(`${base}/${member.userId}/activate`);
    expect(on.body.data).toMatchObject({ role: 'reporting', active: true });

    // Promote to owner (an owner may), then the original owner may step down; the last owner may not.
    expect((await owner.client.put(`${base}/${admin.userId}`, { role: 'owner' })).status).toBe(200);
    expect((await admin.client.put(`${base}/${owner.userId}`, { role: 'administrator' })).status).toBe(200);
    const last = await owner.client.get(`/api/users?company_id=${owner.companyId}`);
    expect(last.status).toBe(200); // still administrator
    const lastOwner = await owner.client.delete(`${base}/${admin.userId}`);
    expect(lastOwner.status).toBe(403); // an administrator cannot remove an owner

    const removed = await admin.client.delete(`${base}/${member.userId}`);
    expect(removed.body.message).toBe('The user was removed from the account');
    expect((await member.client.get(`/api/companies/${owner.companyId}`)).status).toBe(403);
    // Another company's member id: 404 here; another company: 403.
    const stranger = await createAccount(s);
    expect((await admin.client.put(`${base}/${stranger.userId}`, { role: 'user' })).status).toBe(404);
    expect((await admin.client.put(`/api/companies/${stranger.companyId}/users/${stranger.userId}`, { role: 'user' })).status).toBe(403);
  });
});

describe('organizations', () => {
  async function organizationWithTwo(owner: Account) {
    const org = await owner.client.post('/api/business-units', { name: 'Agency One' });
    expect(org.status, JSON.stringify(org.body)).toBe(201);
    const id = org.body.data.id as number;
    const mk = async (name: string) => {
      const r = await owner.client.post(`/api/business-units/${id}/companies`, {
        company_info: { name, timezone: 'America/Chicago', business_unit_id: id, plan_id: 'starter', skip_number: true },
        billing_info: { email: 'billing@example.test' },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.data.id as number;
    };
    return { id, a: await mk('Client Alpha'), b: await mk('Client Beta') };
  }

  it('CRUD, companies with company_info, 422s, a stranger 403 and an unknown id 404', async () => {
    const owner = await createAccount(s);
    const { id, a } = await organizationWithTwo(owner);
    const list = await owner.client.get('/api/business-units');
    expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 1000, total: 1 });
    expect(list.body.data[0]).toMatchObject({ id, name: 'Agency One', owner_id: owner.userId, companies_count: 2, admins_count: 1, eav_attribute_values: [] });
    const companies = await owner.client.get(`/api/business-unit-companies?businessUnitId=${id}&search=alp`);
    expect(companies.body.data).toEqual([
      expect.objectContaining({ id: a, name: 'Client Alpha', account_status: 0, timezone: 'America/Chicago', users_count: 1 }),
    ]);
    expect(companies.body.meta).toMatchObject({ per_page: 100, total: 1 });
    const renamed = await owner.client.put(`/api/business-units/${id}`, { name: 'Agency Uno' });
    expect(renamed.body).toMatchObject({ message: 'Information updated successfully', data: { name: 'Agency Uno' } });

    // Custom fields of entity type Organization 4 (a business-unit attribute).
    const attr = await owner.client.post('/api/eavEntityTypes/4/eavAttributes', { name: 'Region', type: 'text', businessUnitId: id });
    expect(attr.status, JSON.stringify(attr.body)).toBe(201);
    const withEav = await owner.client.put(`/api/business-units/${id}`, { eav_attribute_values: [{ attribute_id: attr.body.data.id, value: 'West' }] });
    expect(withEav.status, JSON.stringify(withEav.body)).toBe(200);
    expect(withEav.body.data.eav_attribute_values).toEqual([{ attribute_id: attr.body.data.id, value: 'West', name: 'Region', type: 'text' }]);
    const userAttr = await owner.client.post('/api/eavEntityTypes/5/eavAttributes', { name: 'Desk', type: 'text', businessUnitId: id });
    const wrongType = await owner.client.put(`/api/business-units/${id}`, { eav_attribute_values: [{ attribute_id: userAttr.body.data.id, value: 'x' }] });
    expect(wrongType.status).toBe(422);

    expect((await owner.client.post('/api/business-units', { name: '  ' })).status).toBe(422);
    const noNumber = await owner.client.post(`/api/business-units/${id}/companies`, { company_info: { name: 'X', business_unit_id: id } });
    expect(noNumber.status).toBe(422);
    expect(noNumber.body.errors['company_info.number']).toBeDefined();
    expect(
      (await owner.client.post(`/api/business-units/${id}/companies`, { company_info: { name: 'X', business_unit_id: id + 1000, skip_number: true } })).status,
    ).toBe(422);
    expect((await owner.client.put(`/api/business-unit-companies/${a}/status`, { status: 5 })).status).toBe(422);
    expect((await owner.client.get('/api/business-units/abc')).status).toBe(422);

    const stranger = await createAccount(s);
    expect((await stranger.client.get(`/api/business-units/${id}`)).status).toBe(403);
    expect((await stranger.client.get(`/api/business-unit-companies?businessUnitId=${id}`)).status).toBe(403);
    expect((await stranger.client.get(`/api/business-unit-users?businessUnitId=${id}`)).status).toBe(403);
    // An account of an organization the caller does not administer is not revealed (404), nor can it be deleted.
    expect((await stranger.client.put(`/api/business-unit-companies/${a}/status`, { status: 1 })).status).toBe(404);
    expect((await stranger.client.delete(`/api/business-unit-companies/${a}`)).status).toBe(404);
    expect((await owner.client.get('/api/business-units/987654321')).status).toBe(404);
    expect((await owner.client.get('/api/business-unit-companies?businessUnitId=987654321')).status).toBe(404);
    const noUnit = await owner.client.get('/api/business-unit-companies');
    expect(noUnit.status).toBe(422);
    expect(noUnit.body.errors.businessUnitId).toBeDefined();
    expect((await owner.client.get('/api/business-unit-users?businessUnitId=abc')).status).toBe(422);
    // The stranger's own company is not an account of this organization.
    expect((await owner.client.put(`/api/business-unit-companies/${stranger.companyId}/status`, { status: 1 })).status).toBe(404);
    // The former nested paths are gone (the spec's paths replace them).
    expect((await owner.client.get(`/api/business-units/${id}/companies`)).status).toBe(404);
    expect((await owner.client.get(`/api/business-units/${id}/users`)).status).toBe(404);
    // Refused while it has accounts.
    expect((await owner.client.delete(`/api/business-units/${id}`)).status).toBe(422);
  });

  it('an org administrator reaches every account, switches between them; removal detaches; the owner cannot be removed', async () => {
    const owner = await createAccount(s);
    const { id, a, b } = await organizationWithTwo(owner);
    const helper = await createAccount(s);
    const added = await owner.client.post(`/api/business-units/${id}/admins`, { email: helper.email });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect((await owner.client.post(`/api/business-units/${id}/admins`, { email: uniqueEmail('nobody') })).status).toBe(422);

    const slim = await helper.client.get('/api/companies/slim?search=client');
    expect(slim.body.data.map((c: { id: number; role: string; organization_name: string }) => [c.id, c.role, c.organization_name])).toEqual([
      [a, 'administrator', 'Agency One'],
      [b, 'administrator', 'Agency One'],
    ]);
    expect(slim.body.meta).toMatchObject({ per_page: 100, total: 2 });
    expect((await helper.client.get(`/api/companies/${b}`)).status).toBe(200);
    const users = await helper.client.get(`/api/business-unit-users?businessUnitId=${id}`);
    expect(users.body.data.find((u: { id: number }) => u.id === helper.userId)).toMatchObject({ is_org_admin: true, companies: [{ id: a }, { id: b }] });

    const ownerRemoval = await helper.client.delete(`/api/business-units/${id}/admins/${owner.userId}`);
    expect(ownerRemoval.status).toBe(422);
    expect(ownerRemoval.body.message).toBe('Failed to remove Organization Admin');

    const removed = await owner.client.delete(`/api/business-units/${id}/admins/${helper.userId}`);
    expect(removed.status).toBe(200);
    expect((await helper.client.get(`/api/companies/${a}`)).status).toBe(403);
    expect((await helper.client.get(`/api/business-units/${id}`)).status).toBe(403);
    expect((await helper.client.get('/api/companies/slim?search=client')).body.data).toEqual([]);
    // Their own company is untouched.
    expect((await helper.client.get(`/api/companies/${helper.companyId}`)).status).toBe(200);
    expect((await owner.client.delete(`/api/business-units/${id}/admins/${helper.userId}`)).body.message).toBe('Failed to remove Organization Admin');
  });

  it('parked keeps access and numbers but stops service; deactivated signs nobody in; bulk update; delete refused while in use', async () => {
    const owner = await createAccount(s);
    const { id, a, b } = await organizationWithTwo(owner);
    const member = await (async () => {
      const email = uniqueEmail('only');
      await owner.client.post(`/api/companies/${a}/invitations`, { email, role: 'user' });
      const anon = new IpClient(s.url);
      await anon.get('/api/csrf-cookie');
      await anon.post(`/api/invitations/${await tokenFor(email)}/accept`, { first_name: 'O', last_name: 'Nly', password: 'only-password-1' });
      return { email, client: await signedIn(email, 'only-password-1') };
    })();

    const parked = await owner.client.put(`/api/business-unit-companies/${a}/status`, { status: 1 });
    expect(parked.body).toMatchObject({ message: 'Information updated successfully', data: { account_status: 1 } });
    expect(await companyServiceState(s.ctx, a)).toBe('parked');
    expect((await member.client.get(`/api/companies/${a}`)).status).toBe(200);

    await owner.client.put(`/api/business-unit-companies/${a}/status`, { status: 2 });
    expect(await companyServiceState(s.ctx, a)).toBe('deactivated');
    expect((await member.client.get(`/api/companies/${a}`)).status).toBe(403);
    const refused = new IpClient(s.url);
    await refused.get('/api/csrf-cookie');
    expect((await refused.post('/api/sanctum/login', { email: member.email, password: 'only-password-1' })).status).toBe(422);
    // The org administrator still manages it through the organization.
    expect((await owner.client.get(`/api/business-unit-companies?businessUnitId=${id}&status=2`)).body.data.map((c: { id: number }) => c.id)).toEqual([a]);

    const foreign = await createAccount(s);
    const badBulk = await owner.client.post(`/api/business-units/${id}/companies/bulk-update`, { company_ids: [a, foreign.companyId], account_status: 0 });
    expect(badBulk.status).toBe(422);
    expect((await owner.client.post(`/api/business-units/${id}/companies/bulk-update`, { company_ids: [a] })).status).toBe(422);
    const bulk = await owner.client.post(`/api/business-units/${id}/companies/bulk-update`, { all: true, account_status: 0, timezone: 'Europe/Paris' });
    expect(bulk.body).toEqual({ message: 'Information updated successfully', updated: 2 });
    const after = await owner.client.get(`/api/business-unit-companies?businessUnitId=${id}`);
    expect(after.body.data.map((c: { account_status: number; timezone: string }) => [c.account_status, c.timezone])).toEqual([
      [0, 'Europe/Paris'],
      [0, 'Europe/Paris'],
    ]);
    expect((await member.client.get(`/api/companies/${a}`)).status).toBe(200);

    // Without the modules' usage probes the deletion cannot be proven safe: refused with the spec's message.
    // The numbers, calls and conversations modules register their probes; a test probe stands for activity on `a`.
    s.ctx.hooks.provide('companyUsageProbe', async (_ctx, companyId) => companyId === a, 'test');
    const inUse = await owner.client.delete(`/api/business-unit-companies/${a}`);
    expect(inUse.status).toBe(422);
    expect(inUse.body.message).toBe('You cannot delete an account that has numbers added or has any activity on those numbers');
    const deleted = await owner.client.delete(`/api/business-unit-companies/${b}`);
    expect(deleted.status).toBe(200);
    expect((await owner.client.get(`/api/companies/${b}`)).status).toBe(403);
    expect((await owner.client.get(`/api/business-units/${id}`)).body.data.companies_count).toBe(1);
  });
});

describe('per-user routing (the user numbers)', () => {
  it('numbers assigned to a user are listed with them and answered as the number assignees; unknown ids 422', async () => {
    const owner = await createAccount(s);
    const member = await join(owner, 'user');
    const found = await owner.client.get('/api/numbers/search?type=local&areaCode=212&limit=5');
    const pick = found.body.data[0];
    const bought = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const numberId = bought.body.id as number;
    expect(await numberAssignees(s.ctx, owner.companyId, numberId)).toEqual([]);

    const saved = await owner.client.put(`/api/companies/${owner.companyId}/users/${member.userId}`, { numbers: [numberId] });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data.numbers).toEqual([numberId]);
    expect(await numberAssignees(s.ctx, owner.companyId, numberId)).toEqual([member.userId]);
    // A number id that does not exist: 422 on numbers (not a 500).
    const bad = await owner.client.put(`/api/companies/${owner.companyId}/users/${member.userId}`, { numbers: [numberId, 2_000_000_000] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['numbers']);
    // Removal from the account drops the assignment.
    await owner.client.delete(`/api/companies/${owner.companyId}/users/${member.userId}`);
    expect(await numberAssignees(s.ctx, owner.companyId, numberId)).toEqual([]);
  });
});

describe("the owner deletes their own account (account.delete; docs/accounts.md 'Deleting an account')", () => {
  it('only the owner; the typed name must match; refused with the spec message while in use; then the account is gone', async () => {
    const owner = await createAccount(s, { companyName: 'Solo Plumbing' });
    const admin = await join(owner, 'administrator');
    const spare = await createAccount(s);
    // Another owner is needed for the in-use case; one account stands for "activity" through the test probe below.
    const busy = await createAccount(s, { companyName: 'Busy Bakery' });
    s.ctx.hooks.provide('companyUsageProbe', async (_ctx, companyId) => companyId === busy.companyId, 'owner-delete-test');

    // An administrator (everything but ownership and billing) may not delete the account.
    expect((await admin.client.request('DELETE', `/api/companies/${owner.companyId}`, { name: 'Solo Plumbing' })).status).toBe(403);
    // Someone else's account: 403, whatever the name.
    expect((await spare.client.request('DELETE', `/api/companies/${owner.companyId}`, { name: 'Solo Plumbing' })).status).toBe(403);
    // The confirmation: required, and the account's exact name.
    const missing = await owner.client.request('DELETE', `/api/companies/${owner.companyId}`, {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors.name).toEqual(['Type the name of the account to confirm.']);
    const wrong = await owner.client.request('DELETE', `/api/companies/${owner.companyId}`, { name: 'solo plumbing' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.name).toEqual(["The name does not match the account's name."]);
    // An account with numbers or activity: the spec's message (the same rule as the business unit's delete).
    const inUse = await busy.client.request('DELETE', `/api/companies/${busy.companyId}`, { name: 'Busy Bakery' });
    expect(inUse.status).toBe(422);
    expect(inUse.body.message).toBe('You cannot delete an account that has numbers added or has any activity on those numbers');
    expect(inUse.body.errors.account).toEqual(['You cannot delete an account that has numbers added or has any activity on those numbers']);
    expect((await busy.client.get(`/api/companies/${busy.companyId}`)).status).toBe(200);

    const deleted = await owner.client.request('DELETE', `/api/companies/${owner.companyId}`, { name: '  Solo Plumbing ' });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(deleted.body).toEqual({ message: 'Account was successfully deleted' });
    expect((await owner.client.get(`/api/companies/${owner.companyId}`)).status).toBe(403);
    expect((await owner.client.get('/api/user')).body.companies).toEqual([]);
    expect((await admin.client.get('/api/user')).body.companies).toEqual([]);
    // Recorded in the audit log of the (now deleted) account.
    const entry = await eventually(() =>
      s.ctx.db
        .selectFrom('audit_log')
        .select(['action', 'entity_type', 'actor_user_id', 'changes'])
        .where('company_id', '=', owner.companyId)
        .where('method', '=', 'DELETE')
        .where('status_code', '=', 200)
        .executeTakeFirst(),
    );
    expect(entry).toMatchObject({ action: 'delete', entity_type: 'companies', actor_user_id: owner.userId });
  });
});
