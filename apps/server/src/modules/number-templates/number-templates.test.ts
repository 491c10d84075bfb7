/** Number templates through the real server (spec 002 §7 "Number templates", §5 ai_eav rule). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';

let s: TestServer;
let owner: Account;
let other: Account;

beforeAll(async () => {
  s = await startTestServer();
  [owner, other] = await Promise.all([createAccount(s), createAccount(s)]);
});
afterAll(async () => {
  await s?.close();
});

async function buy(account: Account, areaCode: string, index: number): Promise<any> {
  const pick = (await account.client.get(`/api/numbers/search?type=local&areaCode=${areaCode}&limit=${index + 1}`)).body.data[index];
  const r = await account.client.post('/api/numbers', { company_id: account.companyId, provider_id: 1, number: pick.number });
  expect(r.status).toBe(201);
  return r.body;
}

const weekdays = {
  preset: 2,
  timezone: 'America/Chicago',
  hours: Object.fromEntries(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open: null, close: null }])),
};

describe('number templates', () => {
  it('creates, lists, reads, updates (ai_eav rule), applies and deletes; validates and isolates', async () => {
    const base = `/api/companies/${owner.companyId}/numberTemplates`;
    const c = await owner.client.post(base, {
      name: 'Sales line',
      record: true,
      call_transcription_enabled: true,
      routes: [
        { label: 'Sales', type: 'sequential', forwards: [{ number: '(312) 555-0101' }, { number: '3125550102' }] },
        { extension: 2, label: 'Support' },
      ],
      schedule: weekdays,
    });
    expect(c.status, JSON.stringify(c.body)).toBe(201);
    const t = c.body.data;
    expect(t).toMatchObject({ name: 'Sales line', record: true, call_transcription_enabled: true, ai_eav_enabled: false, schedule: { preset: 2 } });
    expect(t.routes.map((r: any) => r.extension)).toEqual([1, 2]);
    expect(t.routes[0].forwards).toEqual([{ number: '+13125550101' }, { number: '+13125550102' }]);

    const def = await owner.client.post(base, { name: 'Defaults' });
    expect(def.body.data.routes).toHaveLength(1);
    expect(def.body.data.schedule.preset).toBe(1);

    expect((await owner.client.post(base, { name: '' })).status).toBe(422);
    const badFwd = await owner.client.post(base, { name: 'X', routes: [{ forwards: [{ number: '99' }] }] });
    expect(badFwd.status).toBe(422);
    expect(badFwd.body.errors['routes.0.forwards.0.number']).toBeDefined();
    expect((await owner.client.post(base, { name: 'X', schedule: { ...weekdays, timezone: 'Mars/Base' } })).body.errors['schedule.timezone']).toBeDefined();

    const list = await owner.client.get(base);
    expect(list.body.data.map((x: any) => x.name)).toEqual(['Defaults', 'Sales line']);
    expect((await owner.client.get(`${base}/${t.id}`)).body.id).toBe(t.id);

    // With ai_eav_enabled the record and transcription settings in the same update are omitted.
    const ai = await owner.client.put(`${base}/${t.id}`, { ai_eav_enabled: true, record: false, call_transcription_enabled: false, name: 'Sales AI' });
    expect(ai.status).toBe(200);
    expect(ai.body.data).toMatchObject({ name: 'Sales AI', ai_eav_enabled: true, record: true, call_transcription_enabled: true });
    const plain = await owner.client.put(`${base}/${t.id}`, { ai_eav_enabled: false, record: false });
    expect(plain.body.data).toMatchObject({ ai_eav_enabled: false, record: false, call_transcription_enabled: true });

    const a = await buy(owner, '312', 0);
    const b = await buy(owner, '312', 1);
    const applied = await owner.client.post(`${base}/${t.id}/apply`, { number_ids: [a.id, b.id] });
    expect(applied.status).toBe(200);
    expect(applied.body.data).toHaveLength(2);
    for (const id of [a.id, b.id]) {
      const n = (await owner.client.get(`/api/numbers/${id}`)).body;
      expect(withoutIds(n.routes)).toEqual(t.routes);
      expect(n.schedule).toEqual(t.schedule);
      expect(n.route_type).toBe('Sequential');
    }
    expect((await owner.client.post(`${base}/${t.id}/apply`, { number_ids: [] })).status).toBe(422);

    // Isolation: another company can neither read nor use the template, nor apply to our numbers.
    const theirs = `/api/companies/${other.companyId}/numberTemplates`;
    expect((await other.client.get(base)).status).toBe(403);
    expect((await other.client.get(`${theirs}/${t.id}`)).status).toBe(404);
    expect((await other.client.put(`${theirs}/${t.id}`, { name: 'x' })).status).toBe(404);
    expect((await other.client.delete(`${theirs}/${t.id}`)).status).toBe(404);
    const own = (await other.client.post(theirs, { name: 'Theirs' })).body.data;
    expect((await other.client.post(`${theirs}/${own.id}/apply`, { number_ids: [a.id] })).status).toBe(404);
    expect(withoutIds((await owner.client.get(`/api/numbers/${a.id}`)).body.routes)).toEqual(t.routes);

    expect((await owner.client.delete(`${base}/${t.id}`)).status).toBe(200);
    expect((await owner.client.get(`${base}/${t.id}`)).status).toBe(404);
  });
});

/** A number's routes without the derived route and forward `_id`s (numbers.view.ts), to compare with a template's. */
function withoutIds(routes: any[]): any[] {
  return routes.map(({ _id, ...r }) => ({ ...r, forwards: r.forwards.map(({ _id: f, ...rest }: any) => rest) }));
}
