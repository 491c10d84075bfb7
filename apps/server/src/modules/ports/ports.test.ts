/** Port-in requests through the real server with the sandbox carrier's short test delays. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let owner: Account;
let other: Account;
const sockets: Socket[] = [];

beforeAll(async () => {
  process.env.SANDBOX_PORT_PROGRESS_MS = '100';
  process.env.SANDBOX_PORT_COMPLETE_MS = '400';
  s = await startTestServer();
  [owner, other] = await Promise.all([createAccount(s), createAccount(s)]);
});
afterAll(async () => {
  for (const so of sockets) so.close();
  await s?.close();
  delete process.env.SANDBOX_PORT_PROGRESS_MS;
  delete process.env.SANDBOX_PORT_COMPLETE_MS;
});

const details = { carrier_name: 'Old Telco', account_number: 'A-12345', pin: '4321', authorized_name: 'Pat Owner', service_address: '1 Main St, Austin TX' };

describe('ports', () => {
  it('runs submitted → in_progress → completed, adds the numbers, and publishes port updated', async () => {
    const so = await connectSocket(s, owner.client);
    sockets.push(so);
    expect(await subscribe(so, `company.${owner.companyId}`)).toEqual({ ok: true });
    const events: any[] = [];
    const channels: unknown[] = [];
    so.on('port updated', (e, channel) => {
      events.push(e);
      channels.push(channel);
    });

    const r = await owner.client.post(`/api/company/${owner.companyId}/numbers/port`, {
      ...details,
      numbers: ['(512) 555-0142', '+1 512 555 0143'],
      bill_copy: 'data:application/pdf;base64,JVBERi0=',
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.data).toMatchObject({
      state: 'submitted',
      state_label: 'Submitted',
      numbers: ['+15125550142', '+15125550143'],
      has_bill_copy: true,
      reason: null,
    });
    expect(r.body.data).not.toHaveProperty('pin');
    const id = r.body.data.id;

    await eventually(async () => events.find((e) => e.id === id && e.state === 'completed'));
    expect(events.filter((e) => e.id === id).map((e) => e.state)).toEqual(['submitted', 'in_progress', 'completed']);
    // Every event names its channel (third argument), so the web dispatches by channel and event.
    expect(new Set(channels)).toEqual(new Set([`company.${owner.companyId}`]));
    const list = await owner.client.get(`/api/company/${owner.companyId}/ports`);
    expect(list.body.data[0]).toMatchObject({ id, state: 'completed', state_label: 'Completed' });
    expect(list.body.data[0].completed_at).not.toBeNull();
    const numbers = (await owner.client.get(`/api/companies/${owner.companyId}/numbers`)).body.data.map((n: any) => n.number);
    expect(numbers).toEqual(expect.arrayContaining(['+15125550142', '+15125550143']));
    // The job's steps are in the audit log under the job, started by the requester; the PIN never is.
    const steps = await eventually(async () => {
      const l = await owner.client.get(`/api/audit-log?company_id=${owner.companyId}&entity_type=ports`);
      const mine = (l.body.data as Array<{ entity_id: string; action: string; actor_kind: string }>).filter(
        (e) => e.entity_id === String(id) && e.actor_kind === 'system',
      );
      return mine.length >= 2 ? mine : undefined;
    });
    expect(steps.map((e) => e.action).sort()).toEqual(['completed', 'in_progress']);
    expect(JSON.stringify(steps)).not.toContain('4321');

    // A number already in service cannot be ported again.
    const dup = await owner.client.post(`/api/company/${owner.companyId}/numbers/port`, { ...details, numbers: ['5125550142'] });
    expect(dup.status).toBe(422);
    expect(dup.body.errors['numbers.0']).toBeDefined();
  });

  it('rejects a request with a number ending in 9999 with the reason', async () => {
    const r = await owner.client.post(`/api/company/${owner.companyId}/numbers/port`, { ...details, numbers: ['2125559999'] });
    expect(r.status).toBe(201);
    const done = await eventually(async () => {
      const p = (await owner.client.get(`/api/company/${owner.companyId}/ports`)).body.data.find((x: any) => x.id === r.body.data.id);
      return p.state === 'rejected' ? p : null;
    });
    expect(done).toMatchObject({ state_label: 'Rejected', reason: 'Account number does not match' });
    expect((await owner.client.post('/api/numbers/locate', { number: '2125559999' })).body.owned).toBeNull();
  });

  it('validates input and isolates companies', async () => {
    const url = `/api/company/${owner.companyId}/numbers/port`;
    const bad = await owner.client.post(url, { ...details, numbers: ['12', '5125550150', '512-555-0150'] });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['numbers.0', 'numbers.2']);
    const missing = await owner.client.post(url, { numbers: ['5125550150'] });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(expect.arrayContaining(['carrier_name', 'account_number', 'pin', 'authorized_name', 'service_address']));
    expect((await owner.client.post(url, { ...details, numbers: [] })).status).toBe(422);
    expect((await other.client.post(url, { ...details, numbers: ['5125550150'] })).status).toBe(403);
    expect((await other.client.get(`/api/company/${owner.companyId}/ports`)).status).toBe(403);
    expect((await other.client.get(`/api/company/${other.companyId}/ports`)).body.data).toEqual([]);
  });
});
