/** Numbers API through the real server (sandbox carrier). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let owner: Account;

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s);
});
afterAll(async () => {
  await s?.close();
});

describe('numbers', () => {
  it('searches local numbers by area code with the spec modes and vanity letters', async () => {
    const r = await owner.client.get('/api/numbers/search?type=local&areaCode=212&mode=ends_with&pattern=CALL&limit=5');
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(5);
    for (const n of r.body.data) {
      expect(n.number).toMatch(/^\+1212\d{3}2255$/);
      expect(n).toMatchObject({ type: 'local', region: 'NY', locality: 'New York', provider_id: 1 });
      expect(n.national_number).toMatch(/^\(212\) /);
    }
    const starts = await owner.client.get('/api/numbers/search?type=local&areaCode=415&mode=starts_with&pattern=77&limit=3');
    for (const n of starts.body.data) expect(n.number).toMatch(/^\+141577\d{5}$/);
    const again = await owner.client.get('/api/numbers/search?type=local&areaCode=415&mode=starts_with&pattern=77&limit=3');
    expect(again.body.data).toEqual(starts.body.data);
  });

  it('searches toll-free numbers by prefix, with the 8** wildcard spanning prefixes', async () => {
    const r = await owner.client.get('/api/numbers/search?type=toll_free&prefix=888&limit=4');
    expect(r.body.data.every((n: any) => n.number.startsWith('+1888') && n.type === 'toll_free')).toBe(true);
    const any = await owner.client.get('/api/numbers/search?type=toll_free&prefix=8**&limit=14');
    expect(new Set(any.body.data.map((n: any) => n.number.slice(2, 5))).size).toBeGreaterThan(3);
  });

  it('answers 422 to bad search input', async () => {
    const r = await owner.client.get('/api/numbers/search?type=local&areaCode=21');
    expect(r.status).toBe(422);
    expect(r.body.errors.areaCode).toBeDefined();
    const p = await owner.client.get('/api/numbers/search?type=toll_free&prefix=900');
    expect(p.status).toBe(422);
    expect(p.body.errors.prefix).toBeDefined();
  });

  it('buys a number with defaults, lists it, refuses it twice and hides it from other companies', async () => {
    const pick = (await owner.client.get('/api/numbers/search?type=toll_free&prefix=800&limit=1')).body.data[0];
    const r = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: pick.provider_id, number: pick.number });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      number: pick.number,
      type: 2,
      type_label: 'Toll-Free Voice & SMS',
      category: 1,
      route_type: 'Standard',
      schedule_label: '24/7',
    });
    expect(r.body.routes).toHaveLength(1);
    expect(r.body.routes[0]).toMatchObject({
      extension: 1,
      type: 'standard',
      timeout: 20,
      confirm_key_wait: 10,
      caller_id_pass_thru: true,
      voicemail_enabled: false,
      forwards: [],
    });
    const again = await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: 1, number: pick.number });
    expect(again.status).toBe(422);
    expect(again.body.errors.number).toBeDefined();
    // bought numbers leave the inventory
    const search = await owner.client.get('/api/numbers/search?type=toll_free&prefix=800&limit=20');
    expect(search.body.data.map((n: any) => n.number)).not.toContain(pick.number);
    const list = await owner.client.get(`/api/companies/${owner.companyId}/numbers`);
    expect(list.body.data.map((n: any) => n.id)).toContain(r.body.id);

    const other = await createAccount(s);
    expect((await other.client.get(`/api/numbers/${r.body.id}`)).status).toBe(404);
    expect((await other.client.put(`/api/numbers/${r.body.id}`, { label: 'Mine' })).status).toBe(404);
    expect((await other.client.get(`/api/companies/${owner.companyId}/numbers`)).status).toBe(403);
    expect((await other.client.post('/api/numbers', { company_id: owner.companyId, provider_id: 1, number: '+12125550188' })).status).toBe(403);
  });

  it('saves label, cleaned routes and schedule', async () => {
    const pick = (await owner.client.get('/api/numbers/search?type=local&areaCode=312&limit=1')).body.data[0];
    const n = (await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: 1, number: pick.number })).body;
    const r = await owner.client.put(`/api/numbers/${n.id}`, {
      label: 'Main line',
      routes: [
        { extension: '2', label: 'Support', forwards: [{ number: '(646) 555-0101', valid: true, international: false, updated_at: 'x' }, { number: '' }] },
        { label: 'Sales', type: 'sequential', forwards: [{ number: '6465550102' }, { number: '+16465550103' }] },
      ],
      schedule: {
        preset: 2,
        timezone: 'America/New_York',
        hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open: null, close: null }])),
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('The number has been updated');
    expect(r.body.data.label).toBe('Main line');
    expect(r.body.data.routes.map((e: any) => e.extension)).toEqual([1, 2]);
    expect(r.body.data.routes[1].forwards).toEqual([{ _id: `${n.id}.${r.body.data.routes[1].extension}.0`, number: '+16465550101' }]);
    expect(r.body.data.routes[0]).toMatchObject({ label: 'Sales', type: 'sequential', timeout: 20 });
    expect(r.body.data.schedule_label).toBe('Mon-Fri (9-5)');
    expect(r.body.data.route_type).toBe('Sequential');
    expect((await owner.client.get(`/api/numbers/${n.id}`)).body.routes).toEqual(r.body.data.routes);
  });

  it('answers 422 with field errors for bad forwards and duplicate extensions', async () => {
    const pick = (await owner.client.get('/api/numbers/search?type=local&areaCode=617&limit=1')).body.data[0];
    const n = (await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: 1, number: pick.number })).body;
    const bad = await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ extension: 1, forwards: [{ number: '6465550101' }, { number: '12' }] }] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors)).toEqual(['routes.0.forwards.1.number']);
    const dup = await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ extension: 3 }, { extension: 3 }] });
    expect(dup.status).toBe(422);
    expect(dup.body.errors['routes.1.extension']).toBeDefined();
    const type = await owner.client.put(`/api/numbers/${n.id}`, { routes: [{ type: 'nope' }] });
    expect(type.status).toBe(422);
  });

  it('refuses business hours that close before (or when) they open, on the number and on an extension', async () => {
    const pick = (await owner.client.get('/api/numbers/search?type=local&areaCode=718&limit=1')).body.data[0];
    const n = (await owner.client.post('/api/numbers', { company_id: owner.companyId, provider_id: 1, number: pick.number })).body;
    const week = (mon: { open: string | null; close: string | null }) => ({
      ...Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open: null, close: null }])),
      mon,
    });
    const bad = await owner.client.put(`/api/numbers/${n.id}`, {
      label: 'Changed',
      schedule: { preset: 4, timezone: 'America/Chicago', hours: week({ open: '18:00', close: '08:00' }) },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ 'schedule.hours.mon.close': ['The close time must be after the open time.'] });
    const entry = await owner.client.put(`/api/numbers/${n.id}`, {
      routes: [{ extension: 1, schedule: { preset: 4, timezone: 'UTC', hours: week({ open: '09:00', close: '09:00' }) } }],
    });
    expect(entry.status).toBe(422);
    expect(Object.keys(entry.body.errors)).toEqual(['routes.0.schedule.hours.mon.close']);
    const stored = (await owner.client.get(`/api/numbers/${n.id}`)).body;
    expect(stored.label).not.toBe('Changed');
    expect(stored.schedule.preset).toBe(1);
    const good = await owner.client.put(`/api/numbers/${n.id}`, {
      schedule: { preset: 4, timezone: 'America/Chicago', hours: week({ open: '08:00', close: '18:00' }) },
    });
    expect(good.status, JSON.stringify(good.body)).toBe(200);
  });

  it("gives a new number the company's time zone: the company schedule's zone, else the zone chosen at sign-up", async () => {
    const london = await createAccount(s, { timezone: 'Europe/London' });
    const buy = async (areaCode: string) => {
      const pick = (await london.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}&limit=1`)).body.data[0];
      const r = await london.client.post('/api/numbers', { company_id: london.companyId, provider_id: 1, number: pick.number });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body;
    };
    const first = await buy('213');
    expect(first.schedule.timezone).toBe('Europe/London');
    expect(first.routes[0].schedule.timezone).toBe('Europe/London');
    const saved = await london.client.put(`/api/companies/${london.companyId}/schedule`, {
      schedule: {
        preset: 6,
        timezone: 'Asia/Tokyo',
        hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open: null, close: null }])),
      },
    });
    expect(saved.status).toBe(200);
    const second = await buy('214');
    expect(second.schedule.timezone).toBe('Asia/Tokyo');
    expect(second.routes[0].schedule.timezone).toBe('Asia/Tokyo');
  });
});
