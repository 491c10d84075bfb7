/**
 * Number triggers fire (docs/numbers.md "Triggers") through the real server and the sandbox carrier: a text to a number
 * calls its webhook trigger with a Standard Webhooks signature made with the trigger's own secret (verified with the
 * reference verifier), once even when the domain event repeats; an unanswered call and a voicemail e-mail the
 * trigger's address; a webhook answering 500 is retried and then shown failed with its status; a past call imported
 * as history fires nothing; the signing secret is for the roles that manage numbers of the company only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startReceiver, startTestServer, verifyWebhook as verify, type ReceivedRequest, type TestServer } from '../../../test/harness.js';
import { events } from '../../platform/events/index.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { triggerTuning } from './triggers.fire.js';

const saved = { ...triggerTuning };

let s: TestServer;
let a: Account;
let b: Account;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let base: string;
let received: ReceivedRequest[];

beforeAll(async () => {
  triggerTuning.addressPolicy = { allowHosts: ['127.0.0.1'] };
  triggerTuning.retryLimit = 1;
  triggerTuning.retryDelayS = 1;
  s = await startTestServer();
  [a, b] = await Promise.all([createAccount(s, { firstName: 'Ada' }), createAccount(s, { firstName: 'Bea' })]);
  receiver = await startReceiver((path) => (path.startsWith('/broken') ? 500 : 204));
  ({ base, received } = receiver);
}, 60_000);

afterAll(async () => {
  Object.assign(triggerTuning, saved);
  receiver?.close();
  await s?.close();
});

async function saveTriggers(account: Account, upsert: Array<{ number_id: number; event: string; action: string; target: string }>) {
  const r = await account.client.put(`/api/companies/${account.companyId}/triggers`, { upsert, remove: [] });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  // The answer lists all the company's triggers: these, in the order given.
  const all = r.body.data as Array<{ id: number; number_id: number; event: string; action: string; target: string; last_fired: any }>;
  return upsert.map((u) => all.find((t) => t.number_id === u.number_id && t.event === u.event && t.action === u.action && t.target === u.target)!);
}

async function secretOf(account: Account, id: number): Promise<string> {
  const r = await account.client.get(`/api/companies/${account.companyId}/triggers/${id}/secret`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.secret as string;
}

async function lastFired(account: Account, triggerId: number) {
  const list = (await account.client.get(`/api/companies/${account.companyId}/triggers`)).body.data as Array<{ id: number; last_fired: any }>;
  return list.find((t) => t.id === triggerId)?.last_fired ?? null;
}

describe('number triggers', () => {
  it('a text received calls the webhook trigger, signed with its own secret, once per message', async () => {
    const n = await buyTestNumber(a, '312', 0);
    const [t] = await saveTriggers(a, [{ number_id: n.id, event: 'sms.received', action: 'webhook', target: `${base}/sms` }]);
    expect(t!.last_fired).toBeNull();
    const secret = await secretOf(a, t!.id);
    expect(secret).toMatch(/^whsec_/);

    const sent = await a.client.post('/api/simulator/messages', { from: '+13125550177', to: n.number, body: 'Is the shop open on Sunday?' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const hit = await eventually(async () => received.find((r) => r.path === '/sms'));
    const event = verify(secret, hit);
    expect(event.type).toBe('sms.received');
    expect(event.data).toMatchObject({ trigger_id: t!.id, from: '+13125550177', body: 'Is the shop open on Sunday?', number: { id: n.id, number: n.number } });
    expect(hit.headers['webhook-id']).toMatch(/^trg_\d+$/);
    // Signed with this trigger's secret: another secret does not verify it.
    expect(() => verify(`whsec_${Buffer.from('not the secret of this trigger').toString('base64')}`, hit)).toThrow();
    expect(await eventually(async () => ((await lastFired(a, t!.id))?.state === 'delivered' ? lastFired(a, t!.id) : null))).toMatchObject({
      state: 'delivered',
      status_code: 204,
      error: null,
    });

    // The same domain event again (a carrier redelivery): no second call.
    const again = JSON.parse(hit.body) as { data: { conversation_id: number; message_id: number; received_at: string } };
    const sid = (await s.ctx.db.selectFrom('number_trigger_firings').select('event_key').where('trigger_id', '=', t!.id).executeTakeFirstOrThrow()).event_key;
    await events.publish(s.ctx, 'message.received', {
      companyId: a.companyId,
      numberId: n.id,
      conversationId: again.data.conversation_id,
      itemId: again.data.message_id,
      from: '+13125550177',
      body: 'Is the shop open on Sunday?',
      carrierSid: sid.replace(/^sid:/, ''),
      receivedAt: again.data.received_at,
      keyword: null,
      campaignId: null,
    });
    await new Promise((r) => setTimeout(r, 800));
    expect(received.filter((r) => r.path === '/sms')).toHaveLength(1);
  });

  it('an unanswered call and a voicemail e-mail the trigger address; past calls fire nothing', async () => {
    const n = await buyTestNumber(a, '646', 0);
    const to = `triggers-${Date.now()}@example.com`;
    const [missed, voicemail] = await saveTriggers(a, [
      { number_id: n.id, event: 'call.missed', action: 'email', target: to },
      { number_id: n.id, event: 'call.voicemail', action: 'email', target: to },
    ]);
    // An e-mail trigger has no signing secret.
    expect((await a.client.get(`/api/companies/${a.companyId}/triggers/${missed!.id}/secret`)).status).toBe(404);

    const call = await a.client.post('/api/simulator/calls', { from: '+16465550101', to: n.number, forwards: {} });
    expect(call.status, JSON.stringify(call.body)).toBe(200);
    const mail = await eventually(async () => (await s.ctx.mailer.outbox(20, to)).find((m) => m.subject.startsWith('Missed call')));
    expect(mail.subject).toBe(`Missed call from (646) 555-0101 on ${n.number.replace(/^\+1(\d{3})(\d{3})(\d{4})$/, '($1) $2-$3')}`);
    expect(mail.text_body).toMatch(/called .* and nobody answered/);
    expect(mail.text_body).toMatch(/\/calls\/\d+/);
    expect(await lastFired(a, missed!.id)).toMatchObject({ state: 'delivered' });

    // With voicemail on the route, the next unanswered caller leaves one.
    expect((await a.client.put(`/api/numbers/${n.id}`, { routes: [{ voicemail_enabled: true, forwards: [{ number: '6465550199' }] }] })).status).toBe(200);
    const vm = await a.client.post('/api/simulator/calls', {
      from: '+16465550102',
      to: n.number,
      forwards: { '6465550199': 'no-answer' },
      voicemail_seconds: 2,
    });
    expect(vm.status, JSON.stringify(vm.body)).toBe(200);
    const vmMail = await eventually(async () => (await s.ctx.mailer.outbox(20, to)).find((m) => m.subject.startsWith('New voicemail')), 15_000);
    expect(vmMail.text_body).toContain('left a voicemail');
    expect(await lastFired(a, voicemail!.id)).toMatchObject({ state: 'delivered' });

    // A past call recorded after the fact (history) is no news.
    const before = (await s.ctx.mailer.outbox(50, to)).length;
    await events.publish(s.ctx, 'call.changed', {
      callId: 987_654_321,
      companyId: a.companyId,
      numberId: n.id,
      from: '+16465550103',
      status: 10,
      direction: 'inbound',
      voicemailId: 987_654_321,
      history: true,
    });
    await new Promise((r) => setTimeout(r, 800));
    expect((await s.ctx.mailer.outbox(50, to)).length).toBe(before);
    expect(await s.ctx.db.selectFrom('number_trigger_firings').select('id').where('event_key', '=', 'call:987654321').execute()).toEqual([]);
  });

  it('a webhook answering 500 is tried again, then shown failed with its status', async () => {
    const n = await buyTestNumber(a, '415', 0);
    const [t] = await saveTriggers(a, [{ number_id: n.id, event: 'sms.received', action: 'webhook', target: `${base}/broken` }]);
    expect((await a.client.post('/api/simulator/messages', { from: '+14155550123', to: n.number, body: 'Hello?' })).status).toBe(200);
    const failed = await eventually(async () => {
      const f = await lastFired(a, t!.id);
      return f?.state === 'failed' ? f : null;
    }, 20_000);
    expect(failed).toMatchObject({ state: 'failed', status_code: 500, error: 'HTTP 500' });
    // The first try and one retry, with the same webhook-id.
    const hits = received.filter((r) => r.path === '/broken');
    expect(hits).toHaveLength(2);
    expect(new Set(hits.map((h) => h.headers['webhook-id'])).size).toBe(1);
  });

  it('the signing secret is for the roles that manage numbers of the company', async () => {
    const n = await buyTestNumber(a, '212', 0);
    const [t] = await saveTriggers(a, [{ number_id: n.id, event: 'call.missed', action: 'webhook', target: `${base}/other` }]);
    expect((await b.client.get(`/api/companies/${b.companyId}/triggers/${t!.id}/secret`)).status).toBe(404);
    expect((await b.client.get(`/api/companies/${a.companyId}/triggers/${t!.id}/secret`)).status).toBe(403);
    expect((await a.client.get(`/api/companies/${a.companyId}/triggers/abc/secret`)).status).toBe(422);
    // Addresses a webhook can never reach are refused when saving, on the entry's target.
    for (const target of ['http://10.0.0.7/hook', 'http://[::1]/hook', 'http://user:pw@example.com/hook', 'http://localhost:8080/hook']) {
      const r = await a.client.put(`/api/companies/${a.companyId}/triggers`, {
        upsert: [{ number_id: n.id, event: 'call.missed', action: 'webhook', target }],
        remove: [],
      });
      expect(r.status, target).toBe(422);
      expect(r.body.errors['upsert.0.target'][0], target).toMatch(/^The target cannot receive webhooks: /);
    }
    // Editing the trigger's URL keeps its secret; the list never carries it.
    const secret = await secretOf(a, t!.id);
    const list = await a.client.put(`/api/companies/${a.companyId}/triggers`, {
      upsert: [{ id: t!.id, number_id: n.id, event: 'call.missed', action: 'webhook', target: `${base}/moved` }],
      remove: [],
    });
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect(await secretOf(a, t!.id)).toBe(secret);
    await s.ctx.db.updateTable('company_users').set({ role: 'reporting' }).where('company_id', '=', a.companyId).where('user_id', '=', a.userId).execute();
    try {
      expect((await a.client.get(`/api/companies/${a.companyId}/triggers/${t!.id}/secret`)).status).toBe(403);
    } finally {
      await s.ctx.db.updateTable('company_users').set({ role: 'owner' }).where('company_id', '=', a.companyId).where('user_id', '=', a.userId).execute();
    }
  });
  it('a test firing is sent at once and its outcome answered; one try only', async () => {
    const n = await buyTestNumber(a, '718', 0);
    const to = `trigger-test-${Date.now()}@example.com`;
    const [hook, broken, mail] = await saveTriggers(a, [
      { number_id: n.id, event: 'call.missed', action: 'webhook', target: `${base}/test-ok` },
      { number_id: n.id, event: 'call.missed', action: 'webhook', target: `${base}/broken-test` },
      { number_id: n.id, event: 'sms.received', action: 'email', target: to },
    ]);
    const ok = await a.client.post(`/api/companies/${a.companyId}/triggers/${hook!.id}/test`);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body).toEqual({ message: 'The webhook answered the test with HTTP 204.', data: { state: 'delivered', status_code: 204, error: null } });
    const hit = received.find((r) => r.path === '/test-ok')!;
    const event = verify(await secretOf(a, hook!.id), hit);
    expect(event).toMatchObject({ type: 'call.missed', data: { test: true, trigger_id: hook!.id, number: { id: n.id, number: n.number } } });

    const bad = await a.client.post(`/api/companies/${a.companyId}/triggers/${broken!.id}/test`);
    expect(bad.body).toEqual({ message: 'The test was not delivered: HTTP 500', data: { state: 'failed', status_code: 500, error: 'HTTP 500' } });
    await new Promise((r) => setTimeout(r, 1500));
    expect(received.filter((r) => r.path === '/broken-test')).toHaveLength(1);
    expect(await lastFired(a, broken!.id)).toMatchObject({ state: 'failed', status_code: 500 });

    const mailed = await a.client.post(`/api/companies/${a.companyId}/triggers/${mail!.id}/test`);
    expect(mailed.body.message).toBe(`A test e-mail was sent to ${to}.`);
    const [sent] = await s.ctx.mailer.outbox(5, to);
    expect(sent!.subject).toMatch(/^\[Test\] Text received from \(312\) 555-0100 on /);

    // Another company's trigger, a role that does not manage numbers, a malformed id.
    expect((await b.client.post(`/api/companies/${b.companyId}/triggers/${hook!.id}/test`)).status).toBe(404);
    expect((await b.client.post(`/api/companies/${a.companyId}/triggers/${hook!.id}/test`)).status).toBe(403);
    expect((await a.client.post(`/api/companies/${a.companyId}/triggers/x/test`)).status).toBe(422);
  });
});
