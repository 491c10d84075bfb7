/** Company and user schedules through the API (spec 002 "Schedule"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let owner: Account;
const hours = (open: string | null, close: string | null) =>
  Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open, close }]));

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s, { timezone: 'America/Chicago' });
});
afterAll(async () => {
  await s?.close();
});

describe('schedules', () => {
  it('company schedule: default, save with 24-hour blocks and label, holidays sorted and distinct', async () => {
    const first = await owner.client.get(`/api/companies/${owner.companyId}/schedule`);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ schedule: { preset: 1 }, label: '24/7', holidays: [] });
    const custom = {
      preset: 4,
      timezone: 'America/Los_Angeles',
      hours: { ...hours(null, null), mon: { open: '09:15', close: '17:45' }, sat: { open: '00:00', close: '24:00' } },
    };
    const put = await owner.client.put(`/api/companies/${owner.companyId}/schedule`, {
      schedule: custom,
      holidays: ['2025-12-25', '2025-07-04', '2025-12-25'],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.message).toBe('Settings were successfully updated');
    expect(put.body.data.label).toBe('Custom');
    expect(put.body.data.blocks).toEqual([
      { day: 'mon', start: '09:15', end: '17:45' },
      { day: 'sat', start: '00:00', end: '24:00' },
    ]);
    expect(put.body.data.holidays).toEqual(['2025-07-04', '2025-12-25']);
    const again = await owner.client.get(`/api/companies/${owner.companyId}/schedule`);
    expect(again.body.data.schedule.timezone).toBe('America/Los_Angeles');
  });

  it('rejects a bad time, an unknown zone and a bad date (422); other companies get 403', async () => {
    const bad = await owner.client.put(`/api/companies/${owner.companyId}/schedule`, {
      schedule: { preset: 4, timezone: 'UTC', hours: { ...hours(null, null), mon: { open: '9:00', close: '17:00' } } },
    });
    expect(bad.status).toBe(422);
    const zone = await owner.client.put(`/api/companies/${owner.companyId}/schedule`, {
      schedule: { preset: 1, timezone: 'Mars/Base', hours: hours(null, null) },
    });
    expect(zone.status).toBe(422);
    expect(zone.body.errors['schedule.timezone']).toBeDefined();
    expect((await owner.client.put(`/api/companies/${owner.companyId}/schedule`, { holidays: ['25/12/2025'] })).status).toBe(422);
    const other = await createAccount(s);
    expect((await other.client.get(`/api/companies/${owner.companyId}/schedule`)).status).toBe(403);
  });

  it('refuses hours where the close is not after the open (the domain rule of the web form), with field errors', async () => {
    const before = (await owner.client.get(`/api/companies/${owner.companyId}/schedule`)).body.data.schedule;
    const backwards = {
      preset: 4,
      timezone: 'UTC',
      hours: { ...hours(null, null), mon: { open: '17:00', close: '09:00' }, tue: { open: '09:00', close: '09:00' }, wed: { open: '10:00', close: null } },
    };
    const r = await owner.client.put(`/api/companies/${owner.companyId}/schedule`, { schedule: backwards });
    expect(r.status).toBe(422);
    expect(r.body.errors).toEqual({
      'schedule.hours.mon.close': ['The close time must be after the open time.'],
      'schedule.hours.tue.close': ['The close time must be after the open time.'],
      'schedule.hours.wed.close': ['Choose a close time, or Closed for the whole day.'],
    });
    expect((await owner.client.get(`/api/companies/${owner.companyId}/schedule`)).body.data.schedule).toEqual(before);
    const someone = await createAccount(s);
    const user = await someone.client.put('/api/user/schedule', { schedule: backwards });
    expect(user.status).toBe(422);
    expect(user.body.errors['schedule.hours.mon.close']).toBeDefined();
    // Fixed presets ignore the hours sent with them.
    expect((await someone.client.put('/api/user/schedule', { schedule: { ...backwards, preset: 2 } })).status).toBe(200);
  });

  it('user schedule: defaults to the user zone, then saves', async () => {
    const first = await owner.client.get('/api/user/schedule');
    expect(first.status).toBe(200);
    expect(first.body.data.schedule.preset).toBe(1);
    const put = await owner.client.put('/api/user/schedule', { schedule: { preset: 2, timezone: 'Europe/Paris', hours: hours(null, null) } });
    expect(put.status).toBe(200);
    expect(put.body.data.label).toBe('Mon-Fri (9-5)');
    expect(put.body.data.blocks).toHaveLength(5);
    expect((await owner.client.get('/api/user/schedule')).body.data.schedule.timezone).toBe('Europe/Paris');
  });
});
