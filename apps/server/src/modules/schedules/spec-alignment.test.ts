/**
 * Schedules, number templates, greetings, notification counts and the call view say what the
 * specification says, through the real server: schedules sent and answered as 24-hour HH:mm
 * blocks (foundation §3; the open/close hours stay as a convenience), DELETE
 * /companies/{companyId}/numberTemplates on the collection (spec 002 §7), greeting updates through
 * POST /greetings with `_method=PUT` and through PUT /greetings/{id}, notificationCountsByNumber in
 * the `{data}` envelope, and the call detail's `outbound` with `isInbound` derived from it and
 * `include=ascOptions` (spec 001 §3, §7).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

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

const weekdays9to5 = ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, start: '09:00', end: '17:00' }));

describe('schedules as 24-hour blocks', () => {
  it('takes the company schedule as blocks and answers blocks with the hours beside them', async () => {
    const url = `/api/companies/${owner.companyId}/schedule`;
    const blocks = [
      { day: 'mon', start: '08:30', end: '18:00' },
      { day: 'sat', start: '22:00', end: '24:00' },
    ];
    const put = await owner.client.put(url, { schedule: { preset: 4, timezone: 'America/Chicago', blocks } });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const got = (await owner.client.get(url)).body.data;
    expect(got.schedule.blocks).toEqual(blocks);
    expect(got.blocks).toEqual(blocks); // the earlier top-level form stays
    expect(got.schedule.hours.mon).toEqual({ open: '08:30', close: '18:00' });
    expect(got.schedule.hours.sat).toEqual({ open: '22:00', close: '24:00' });
    expect(got.schedule.hours.tue).toEqual({ open: null, close: null });
    const stored = await s.ctx.db.selectFrom('company_schedules').select('schedule').where('company_id', '=', owner.companyId).executeTakeFirstOrThrow();
    expect(stored.schedule).not.toHaveProperty('blocks'); // the stored form is the hours

    // The open/close form is still accepted; sent together with blocks, the hours win (an editor
    // that loaded the schedule, blocks included, and changed its hours sends both).
    const hours: Record<string, { open: string | null; close: string | null }> = Object.fromEntries(
      ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'].map((d) => [d, { open: null, close: null }]),
    );
    hours.tue = { open: '10:00', close: '12:00' };
    const byHours = await owner.client.put(url, { schedule: { preset: 4, timezone: 'America/Chicago', hours } });
    expect(byHours.status).toBe(200);
    expect(byHours.body.data.schedule.blocks).toEqual([{ day: 'tue', start: '10:00', end: '12:00' }]);
    const agree = await owner.client.put(url, {
      schedule: { preset: 4, timezone: 'America/Chicago', hours, blocks: [{ day: 'tue', start: '10:00', end: '12:00' }] },
    });
    expect(agree.status).toBe(200);
    const edited = await owner.client.put(url, {
      schedule: { preset: 4, timezone: 'America/Chicago', hours, blocks: [{ day: 'tue', start: '10:00', end: '13:00' }] },
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.schedule.blocks).toEqual([{ day: 'tue', start: '10:00', end: '12:00' }]);

    // Bad blocks answer 422 with the field named.
    const twice = await owner.client.put(url, {
      schedule: {
        preset: 4,
        timezone: 'UTC',
        blocks: [
          { day: 'mon', start: '09:00', end: '10:00' },
          { day: 'mon', start: '11:00', end: '12:00' },
        ],
      },
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors['schedule.blocks']).toEqual(['The day mon has more than one block.']);
    const badTime = await owner.client.put(url, { schedule: { preset: 4, timezone: 'UTC', blocks: [{ day: 'mon', start: '9am', end: '10:00' }] } });
    expect(badTime.status).toBe(422);
    expect(badTime.body.errors['schedule.blocks.0.start']).toBeDefined();
    const empty = await owner.client.put(url, { schedule: { preset: 4, timezone: 'UTC', blocks: [{ day: 'mon', start: '10:00', end: '10:00' }] } });
    expect(empty.status).toBe(422);
    const backwards = await owner.client.put(url, { schedule: { preset: 4, timezone: 'UTC', blocks: [{ day: 'tue', start: '22:00', end: '02:00' }] } });
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors['schedule.blocks.0.end']).toEqual(['The close time must be after the open time.']);
    const neither = await owner.client.put(url, { schedule: { preset: 4, timezone: 'UTC' } });
    expect(neither.status).toBe(422);
    expect(neither.body.errors['schedule.hours']).toBeDefined();
    const badZone = await owner.client.put(url, { schedule: { preset: 4, timezone: 'Mars/Base', blocks: weekdays9to5 } });
    expect(badZone.status).toBe(422);
    expect(badZone.body.errors['schedule.timezone']).toBeDefined();
    expect((await other.client.put(url, { schedule: { preset: 4, timezone: 'UTC', blocks: weekdays9to5 } })).status).toBe(403);
  });

  it("takes a number's and an extension's schedule as blocks; presets answer their own blocks", async () => {
    const n = await buyTestNumber(owner, '312');
    const put = await owner.client.put(`/api/numbers/${n.id}`, {
      schedule: { preset: 4, timezone: 'America/New_York', blocks: weekdays9to5 },
      routes: [{ extension: 1, schedule: { preset: 1, timezone: 'America/New_York', blocks: [] } }],
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(put.body.data.schedule.blocks).toEqual(weekdays9to5);
    expect(put.body.data.schedule.hours.fri).toEqual({ open: '09:00', close: '17:00' });
    expect(put.body.data.schedule_label).toBe('Custom');
    // 24/7 answers seven all-day blocks, whatever blocks came with it.
    expect(put.body.data.routes[0].schedule.blocks).toHaveLength(7);
    expect(put.body.data.routes[0].schedule.blocks[0]).toEqual({ day: 'mon', start: '00:00', end: '24:00' });
    const user = await owner.client.put('/api/user/schedule', { schedule: { preset: 5, timezone: 'UTC', blocks: weekdays9to5 } });
    expect(user.status).toBe(200);
    expect(user.body.data.schedule.blocks).toEqual([]);
  });
});

describe('number templates on the collection', () => {
  it('DELETE /companies/{companyId}/numberTemplates deletes the ids given in the body or the query, all or none', async () => {
    const base = `/api/companies/${owner.companyId}/numberTemplates`;
    const make = async (name: string) => (await owner.client.post(base, { name, schedule: { preset: 4, timezone: 'UTC', blocks: weekdays9to5 } })).body.data;
    const [t1, t2, t3, t4] = [await make('One'), await make('Two'), await make('Three'), await make('Four')];
    expect(t1.schedule.blocks).toEqual(weekdays9to5);
    const theirs = (await other.client.post(`/api/companies/${other.companyId}/numberTemplates`, { name: 'Theirs' })).body.data;

    // Body form.
    const del = await owner.client.request('DELETE', base, { ids: [t1.id, t2.id] });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    expect(del.body).toEqual({ message: 'The number templates have been deleted', ids: [t1.id, t2.id].sort((a, b) => a - b) });
    // Query form (bracket notation, foundation §7).
    const q = await owner.client.delete(`${base}?ids[]=${t3.id}`);
    expect(q.status).toBe(200);
    expect(q.body.ids).toEqual([t3.id]);
    const left = (await owner.client.get(base)).body.data.map((t: any) => t.id);
    expect(left).toEqual([t4.id]);

    // Someone else's id among them: 404 and nothing is deleted.
    const mixed = await owner.client.request('DELETE', base, { ids: [t4.id, theirs.id] });
    expect(mixed.status).toBe(404);
    expect((await owner.client.get(`${base}/${t4.id}`)).status).toBe(200);
    expect((await other.client.get(`/api/companies/${other.companyId}/numberTemplates/${theirs.id}`)).status).toBe(200);
    // No ids, bad ids: 422 naming the field.
    const none = await owner.client.delete(base);
    expect(none.status).toBe(422);
    expect(none.body.errors.ids).toEqual(['The ids field is required.']);
    expect((await owner.client.request('DELETE', base, { ids: [] })).status).toBe(422);
    expect((await owner.client.request('DELETE', base, { ids: ['x'] })).status).toBe(422);
    expect((await other.client.request('DELETE', base, { ids: [t4.id] })).status).toBe(403);
    // The per-id delete stays.
    expect((await owner.client.delete(`${base}/${t4.id}`)).status).toBe(200);
  });
});

describe('greetings', () => {
  it('updates through POST /greetings with _method=PUT (JSON too) and through PUT /greetings/{id}', async () => {
    const created = await owner.client.post('/api/greetings', { company_id: owner.companyId, name: 'Welcome', content: 'Hello.' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const g = created.body.data;
    const viaPost = await owner.client.post('/api/greetings', { _method: 'PUT', id: g.id, company_id: owner.companyId, name: 'Welcome back' });
    expect(viaPost.status).toBe(200);
    expect(viaPost.body.data).toMatchObject({ id: g.id, name: 'Welcome back' });
    const form = new FormData();
    form.set('company_id', String(owner.companyId));
    form.set('content', 'Hello again.');
    const viaPut = await owner.client.put(`/api/greetings/${g.id}`, form);
    expect(viaPut.status, JSON.stringify(viaPut.body)).toBe(200);
    expect(viaPut.body.data).toMatchObject({ id: g.id, name: 'Welcome back', content: 'Hello again.' });
    expect((await owner.client.get('/api/greetings?company_id=' + owner.companyId)).body.data.filter((x: any) => x.id === g.id)).toHaveLength(1);
    expect((await other.client.put(`/api/greetings/${g.id}`, { company_id: other.companyId, name: 'Mine' })).status).toBe(404);
    expect((await owner.client.put(`/api/greetings/${g.id}`, { company_id: owner.companyId, content: 'x'.repeat(100_000) })).status).toBe(422);
  });
});

describe('notificationCountsByNumber', () => {
  it('answers the {data} envelope of every list', async () => {
    const r = await owner.client.get(`/api/companies/${owner.companyId}/notificationCountsByNumber`);
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body.data)).toBe(true);
    expect(Array.isArray(r.body)).toBe(false);
  });
});

describe('the call view', () => {
  it('has outbound 0 or 1 with isInbound derived from it, and ascOptions when included', async () => {
    const n = await buyTestNumber(owner, '646');
    const sim = await owner.client.post('/api/simulator/calls', { from: '+13125550188', to: n.number, voicemail_seconds: 2 });
    expect(sim.status).toBe(200);
    const row = await s.ctx.db.selectFrom('calls').select('id').where('carrier_sid', '=', sim.body.sid).executeTakeFirstOrThrow();
    const inbound = await owner.client.get(`/api/calls/${row.id}`);
    expect(inbound.status).toBe(200);
    expect(inbound.body).toMatchObject({ outbound: 0, isInbound: true, direction: 'inbound' });
    expect(inbound.body).not.toHaveProperty('ascOptions');
    expect(inbound.body).toHaveProperty('history');
    expect(inbound.body).toHaveProperty('eavAttributeValues');

    const withOptions = await owner.client.get(`/api/calls/${row.id}?include=history,note,ascOptions,eavAttributeValues`);
    expect(withOptions.body.ascOptions.outcomes.map((o: any) => o.value)).toEqual([
      'appt_booked',
      'vehicle_ordered',
      'parts_ordered',
      'get_back_commitment',
      'not_opportunity',
      'opportunity',
      'unknown',
    ]);
    expect(withOptions.body.ascOptions.departments).toHaveLength(13);
    expect(withOptions.body.ascOptions.qualifications).toEqual([
      { id: 1, label: 'Qualified' },
      { id: 2, label: 'Not qualified' },
      { id: 3, label: 'Lead' },
    ]);
    const bracket = await owner.client.get(`/api/calls/${row.id}?include[]=ascOptions`);
    expect(bracket.body.ascOptions).toBeDefined();
    const patched = await owner.client.patch(`/api/calls/${row.id}`, { qualification: 3 });
    expect(patched.body).toMatchObject({ outbound: 0, isInbound: true, qualification: 3 });

    // Going active in the app provisions the SIP identity a browser-placed call needs.
    expect((await owner.client.post(`/api/companies/${owner.companyId}/in-app-calling/status`, { status: 'active' })).status).toBe(200);
    const placed = await owner.client.post('/api/v1/calls/token', { number_id: n.id, destination: '(312) 555-0166' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    const outbound = await owner.client.get(`/api/calls/${placed.body.call_id}`);
    expect(outbound.body).toMatchObject({ outbound: 1, isInbound: false, direction: 'outbound' });
    expect((await other.client.get(`/api/calls/${row.id}?include=ascOptions`)).status).toBe(404);
  }, 30_000);
});
