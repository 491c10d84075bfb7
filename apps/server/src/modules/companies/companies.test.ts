/** `assertCompanyAccess` (foundation §6 tenant isolation) against a real database. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { ForbiddenError } from '../../platform/http/errors.js';
import { addCompanyMember, assertCompanyAccess, getCompanyMessagingSettings, isDeactivatedEverywhere, MANAGER_ROLES } from './companies.service.js';

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(async () => {
  await s?.close();
});

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

describe('company messaging settings (docs/quiet-hours.md)', () => {
  const valid = {
    help_text: 'Acme: call 555-0100 for help.',
    quiet_hours_enabled: false,
    quiet_hours_start: '09:15',
    quiet_hours_end: '20:45',
    links_enabled: true,
    timezone: 'America/Chicago',
  };

  it('GET answers the defaults to any member; PUT by the owner saves and answers the message and data', async () => {
    const a = await createAccount(s);
    const got = await a.client.get(`/api/companies/${a.companyId}/settings`);
    expect(got.status).toBe(200);
    expect(got.body.data).toMatchObject({
      help_text: '',
      quiet_hours_enabled: true,
      quiet_hours_start: '08:00',
      quiet_hours_end: '21:00',
      links_enabled: false,
    });
    const put = await a.client.put(`/api/companies/${a.companyId}/settings`, valid);
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body).toEqual({ message: 'Settings were successfully updated', data: valid });
    expect((await a.client.get(`/api/companies/${a.companyId}/settings`)).body.data).toEqual(valid);
    expect(await getCompanyMessagingSettings(s.ctx, a.companyId)).toEqual({ ...valid, name: expect.any(String) });
    // The company's zone is the one the switcher shows.
    expect((await a.client.get(`/api/companies/${a.companyId}`)).body.timezone).toBe('America/Chicago');
  });

  it('422 with field errors for a long help text, malformed times, equal start and end, an unknown zone, a missing switch', async () => {
    const a = await createAccount(s);
    const url = `/api/companies/${a.companyId}/settings`;
    const bad = await a.client.put(url, { ...valid, help_text: 'x'.repeat(301), quiet_hours_start: '25:00', quiet_hours_end: '8pm', timezone: 'Mars/Olympus' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['help_text', 'quiet_hours_end', 'quiet_hours_start', 'timezone']);
    const same = await a.client.put(url, { ...valid, quiet_hours_start: '22:00', quiet_hours_end: '22:00' });
    expect(same.status).toBe(422);
    expect(same.body.errors.quiet_hours_end).toEqual(['The quiet hours end must be different from the start.']);
    const { links_enabled: _omit, ...missing } = valid;
    const miss = await a.client.put(url, missing);
    expect(miss.status).toBe(422);
    expect(Object.keys(miss.body.errors)).toEqual(['links_enabled']);
    expect((await a.client.put(url, { ...valid, help_text: 'x'.repeat(300) })).status).toBe(200);
    expect((await a.client.get(url)).body.data.help_text).toHaveLength(300);
  });

  it('403 for a member who is not an owner or administrator, and for another company', async () => {
    const a = await createAccount(s);
    const b = await createAccount(s);
    await addCompanyMember(s.ctx, a.companyId, b.userId, 'user');
    const url = `/api/companies/${a.companyId}/settings`;
    expect((await b.client.get(url)).status).toBe(200); // any member reads
    expect((await b.client.put(url, valid)).status).toBe(403);
    expect((await a.client.get(`/api/companies/${b.companyId}/settings`)).status).toBe(403);
    expect((await a.client.put(`/api/companies/${b.companyId}/settings`, valid)).status).toBe(403);
    await addCompanyMember(s.ctx, a.companyId, b.userId, 'administrator');
    expect((await b.client.put(url, { ...valid, help_text: 'By the admin' })).status).toBe(200);
    expect((await a.client.get(url)).body.data.help_text).toBe('By the admin');
    expect((await b.client.get(`/api/companies/${b.companyId}/settings`)).body.data.help_text).toBe('');
  });
});
