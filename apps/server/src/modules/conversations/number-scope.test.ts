/**
 * A `user` sees and works only the numbers assigned to them (docs/permissions.md "Numbers a user
 * sees"), through the real server: numbers list, detail and datatable; the inbox (list, thread,
 * items, counts by number); sending (403 from another number); call detail and voicemails; none
 * assigned: nothing. The owner sees everything; another company's user is refused. Live inbox events
 * reach a `user` for their numbers only; a role without the inbox cannot join its channel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { addCompanyMember } from '../companies/companies.service.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let owner: Account;
let agent: Account;
let stranger: Account;
let numA: { id: number; number: string };
let numB: { id: number; number: string };
let seq = 0;

function sms(to: string, from: string, body: string): Record<string, string> {
  seq += 1;
  return { MessageSid: `SM${'5'.repeat(8)}${String(seq).padStart(24, '0')}`, AccountSid: 'ACtest', From: from, To: to, Body: body, NumMedia: '0' };
}

function voice(to: string, callSid: string) {
  return postWebhook(s, '/webhooks/twilio/voice', {
    CallSid: callSid,
    AccountSid: s.ctx.config.twilioAccountSid,
    From: '+13125550199',
    To: to,
    CallStatus: 'ringing',
    Direction: 'inbound',
  });
}

const conversations = (acc: Account) => acc.client.get(`/api/companies/${owner.companyId}/conversations?perPage=50`);

beforeAll(async () => {
  s = await startTestServer();
  [owner, agent, stranger] = await Promise.all([createAccount(s), createAccount(s), createAccount(s)]);
  await addCompanyMember(s.ctx, owner.companyId, agent.userId, 'user');
  numA = await buyTestNumber(owner, '212');
  numB = await buyTestNumber(owner, '213');
  expect((await postWebhook(s, '/webhooks/twilio/messaging', sms(numA.number, '+13125550101', 'To A'))).status).toBe(200);
  expect((await postWebhook(s, '/webhooks/twilio/messaging', sms(numB.number, '+13125550102', 'To B'))).status).toBe(200);
}, 60_000);

afterAll(async () => {
  await s?.close();
});

describe('numbers a user sees', () => {
  it('a user with no assigned number sees no numbers, conversations or voicemails', async () => {
    const list = await agent.client.get(`/api/companies/${owner.companyId}/numbers`);
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([]);
    const inbox = await conversations(agent);
    expect(inbox.status).toBe(200);
    expect(inbox.body.data).toEqual([]);
    expect((await agent.client.get(`/api/numbers/${numA.id}`)).status).toBe(404);
    const vm = await agent.client.get(`/api/voicemails?company_id=${owner.companyId}`);
    expect(vm.status).toBe(200);
    expect(vm.body.data).toEqual([]);
  });

  it('assigned number A and not B: lists only A, 404 on B, 403 sending from B; the owner sees both', async () => {
    const put = await owner.client.put(`/api/companies/${owner.companyId}/users/${agent.userId}`, { numbers: [numA.id] });
    expect(put.status, JSON.stringify(put.body)).toBe(200);

    // Numbers: list, detail, the datatable and the detail by number.
    const list = await agent.client.get(`/api/companies/${owner.companyId}/numbers`);
    expect(list.body.data.map((n: { id: number }) => n.id)).toEqual([numA.id]);
    expect((await agent.client.get(`/api/numbers/${numA.id}`)).status).toBe(200);
    expect((await agent.client.get(`/api/numbers/${numB.id}`)).status).toBe(404);
    expect((await agent.client.get(`/api/numbers/list/${numB.id}`)).status).toBe(404);
    const table = await agent.client.get(`/api/companies/${owner.companyId}/numbers/datatable`);
    expect(table.status).toBe(200);
    expect(table.body.meta.total).toBe(1);
    expect(table.body.data.map((n: { id: number }) => n.id)).toEqual([numA.id]);
    expect((await owner.client.get(`/api/companies/${owner.companyId}/numbers`)).body.data).toHaveLength(2);
    // Locating B's number tells the agent it is taken, without its details.
    const located = await agent.client.post('/api/numbers/locate', { number: numB.number });
    expect(located.status, JSON.stringify(located.body)).toBe(200);
    expect(located.body).toMatchObject({ number: numB.number, owned: null, available: false });
    expect((await owner.client.post('/api/numbers/locate', { number: numB.number })).body.owned).toMatchObject({ id: numB.id });

    // Inbox: only A's conversation; B's thread is 404 whichever way it is asked.
    const mine = await conversations(agent);
    type Conv = { conversationId: number; number: { id: number } };
    expect(mine.body.data.map((c: Conv) => c.number.id)).toEqual([numA.id]);
    const all = await conversations(owner);
    expect(all.body.data.map((c: Conv) => c.number.id).sort()).toEqual([numA.id, numB.id].sort());
    const convB = all.body.data.find((c: Conv) => c.number.id === numB.id).conversationId as number;
    const convA = all.body.data.find((c: Conv) => c.number.id === numA.id).conversationId as number;
    const base = `/api/companies/${owner.companyId}/conversations`;
    expect((await agent.client.get(`${base}/${convB}`)).status).toBe(404);
    expect((await agent.client.get(`${base}/${convB}/items`)).status).toBe(404);
    expect((await agent.client.put(`${base}/${convB}/read-all`)).status).toBe(404);
    expect((await agent.client.post(`${base}/${convB}/notes`, { body: 'hi' })).status).toBe(404);
    expect((await agent.client.put(`${base}/bulk-update`, { ids: [convA, convB], type: 'read' })).status).toBe(404);
    expect((await agent.client.put(`/api/inbox/conversations/${convB}/archive`)).status).toBe(404);
    expect((await agent.client.get(`${base}/${convA}/items`)).status).toBe(200);
    // Asking for B's number explicitly gives nothing either.
    expect((await agent.client.get(`${base}?numberIds[]=${numB.id}`)).body.data ?? []).toEqual([]);
    const items = await agent.client.get(`/api/inbox/conversations/items?company_id=${owner.companyId}&perPage=50`);
    expect(items.status).toBe(200);
    expect(new Set(items.body.data.map((i: { conversationId: number }) => i.conversationId))).toEqual(new Set([convA]));

    // Counts by number: only A for the agent; both for the owner.
    const counts = await agent.client.get(`/api/companies/${owner.companyId}/notificationCountsByNumber`);
    expect(counts.status).toBe(200);
    expect(JSON.stringify(counts.body)).not.toContain(`"${numB.id}"`);
    const ownerCounts = await owner.client.get(`/api/companies/${owner.companyId}/notificationCountsByNumber`);
    expect(JSON.stringify(ownerCounts.body)).toContain(String(numB.id));

    // Sending: from A yes; from B (by number or by B's conversation) 403; bad input still 422.
    const fromA = await agent.client.post('/api/message', { company_id: owner.companyId, number_id: numA.id, to: '+13125550101', content: 'Hello from A' });
    expect(fromA.status, JSON.stringify(fromA.body)).toBe(201);
    const fromB = await agent.client.post('/api/message', { company_id: owner.companyId, number_id: numB.id, to: '+13125550102', content: 'Hello from B' });
    expect(fromB.status).toBe(403);
    expect(fromB.body.message).toBe('You can only send messages and place calls from the numbers assigned to you.');
    expect((await agent.client.post('/api/message', { company_id: owner.companyId, conversation_id: convB, content: 'x' })).status).toBe(403);
    expect((await agent.client.post('/api/message', { company_id: owner.companyId, number_id: numA.id, content: 'no recipient' })).status).toBe(422);
    expect(
      (await owner.client.post('/api/message', { company_id: owner.companyId, number_id: numB.id, to: '+13125550102', content: 'Owner from B' })).status,
    ).toBe(201);
    const call = await agent.client.post('/api/v1/calls/token', { number_id: numB.id, destination: '+13125550102' });
    expect(call.status).toBe(403);
    expect(call.body.message).toBe('You can only send messages and place calls from the numbers assigned to you.');

    // A number's open/closed override: A readable, B not.
    expect((await agent.client.get(`/api/numbers/${numA.id}/override`)).status).toBe(200);
    expect((await agent.client.get(`/api/numbers/${numB.id}/override`)).status).toBe(404);

    // Another company's user: refused.
    expect((await stranger.client.get(`/api/companies/${owner.companyId}/numbers`)).status).toBe(403);
    expect((await stranger.client.get(`${base}/${convA}`)).status).toBe(403);
  });

  it('calls: the call detail of B is 404 for the agent, 200 for the owner; A is visible', async () => {
    const sidA = `CA${'a'.repeat(30)}01`;
    const sidB = `CA${'b'.repeat(30)}01`;
    expect((await voice(numA.number, sidA)).status).toBe(200);
    expect((await voice(numB.number, sidB)).status).toBe(200);
    const rows = await s.ctx.db.selectFrom('calls').select(['id', 'carrier_sid']).where('carrier_sid', 'in', [sidA, sidB]).execute();
    const idA = rows.find((r) => r.carrier_sid === sidA)!.id;
    const idB = rows.find((r) => r.carrier_sid === sidB)!.id;
    expect((await agent.client.get(`/api/calls/${idA}`)).status).toBe(200);
    expect((await agent.client.get(`/api/calls/${idB}`)).status).toBe(404);
    expect((await agent.client.post(`/api/calls/${idB}/tags/tags`, { tags: ['vip'] })).status).toBe(404);
    expect((await owner.client.get(`/api/calls/${idB}`)).status).toBe(200);
    expect((await stranger.client.get(`/api/calls/${idA}`)).status).toBe(404);
  });
  it('live: the inbox channel carries only the assigned numbers to a user; reporting cannot join; a change of numbers reconnects', async () => {
    expect((await owner.client.put(`/api/companies/${owner.companyId}/users/${agent.userId}`, { numbers: [numA.id] })).status).toBe(200);
    const reporter = await createAccount(s);
    await addCompanyMember(s.ctx, owner.companyId, reporter.userId, 'reporting');
    const channel = `conversations.${owner.companyId}`;
    const [ownerSocket, agentSocket, reporterSocket] = await Promise.all([
      connectSocket(s, owner.client),
      connectSocket(s, agent.client),
      connectSocket(s, reporter.client),
    ]);
    try {
      expect(await subscribe(ownerSocket, channel)).toEqual({ ok: true });
      expect(await subscribe(agentSocket, channel)).toEqual({ ok: true });
      expect((await subscribe(reporterSocket, channel)).ok).toBe(false);
      const seen = { owner: [] as number[], agent: [] as number[] };
      ownerSocket.on('conversation updated', (p: { number?: { id: number } }) => p.number && seen.owner.push(p.number.id));
      agentSocket.on('conversation updated', (p: { number?: { id: number } }) => p.number && seen.agent.push(p.number.id));
      expect((await postWebhook(s, '/webhooks/twilio/messaging', sms(numB.number, '+13125550102', 'Live to B'))).status).toBe(200);
      expect((await postWebhook(s, '/webhooks/twilio/messaging', sms(numA.number, '+13125550101', 'Live to A'))).status).toBe(200);
      await eventually(async () => seen.owner.includes(numA.id) && seen.owner.includes(numB.id) && seen.agent.includes(numA.id), 10_000);
      expect(seen.agent.every((id) => id === numA.id)).toBe(true);

      // Reassigned to B: the server drops the agent's connection so it joins again with the new scope.
      const dropped = new Promise<string>((resolve) => agentSocket.once('disconnect', resolve));
      expect((await owner.client.put(`/api/companies/${owner.companyId}/users/${agent.userId}`, { numbers: [numB.id] })).status).toBe(200);
      expect(await dropped).toBe('io server disconnect');
    } finally {
      for (const x of [ownerSocket, agentSocket, reporterSocket]) x.disconnect();
    }
  });
});
