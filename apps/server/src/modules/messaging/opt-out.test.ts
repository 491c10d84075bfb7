/**
 * Opt-outs and compliance through the real server (docs/messaging.md "Opt-outs and compliance"): inbound single-word keywords
 * unsubscribe, resubscribe or ask for help; one confirmation per change, sent as an ordinary
 * outbound message in the thread; the inbox refuses sending to an unsubscribed contact.
 */
import { DEFAULT_HELP_TEXT, OPT_IN_CONFIRMATION, OPT_OUT_CONFIRMATION, RECIPIENT_UNSUBSCRIBED } from '@switchboard/domain';
import { sql } from 'kysely';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, postWebhook, startTestServer, type TestServer } from '../../../test/harness.js';
import { createContact } from '../contacts/contacts.service.js';
import { buyTestNumber, connectSocket, subscribe } from './messaging.test-helpers.js';

let s: TestServer;
let a: Account;
let b: Account;
let number: { id: number; number: string };
let bNumber: { id: number; number: string };
let companyName: string;
const sockets: Socket[] = [];
let sid = 0;

function params(from: string, body: string, to = number.number) {
  sid += 1;
  return { MessageSid: `SMoptout${String(sid).padStart(26, '0')}`, AccountSid: 'ACtest', From: from, To: to, Body: body, NumMedia: '0' };
}
async function inbound(from: string, body: string, to = number.number) {
  const p = params(from, body, to);
  const r = await postWebhook(s, '/webhooks/twilio/messaging', p);
  expect(r.status).toBe(200);
  return p;
}
async function conversationOf(from: string, account = a) {
  const l = await account.client.get(`/api/companies/${account.companyId}/conversations?perPage=100`);
  return l.body.data.find((c: any) => c.recipient === from);
}
async function outboundTexts(from: string): Promise<string[]> {
  const conv = await conversationOf(from);
  if (!conv) return [];
  const items = (await a.client.get(`/api/companies/${a.companyId}/conversations/${conv.id}/items?perPage=100`)).body.data;
  return items.filter((i: any) => !i.isInbound && i.details.type === 'message').map((i: any) => i.details.content);
}
async function contactOf(companyId: number, e164: string) {
  return s.ctx.db.selectFrom('contacts').selectAll().where('company_id', '=', companyId).where('number', '=', e164).execute();
}

beforeAll(async () => {
  s = await startTestServer();
  companyName = `Acme Tires ${Date.now()}`;
  [a, b] = await Promise.all([createAccount(s, { companyName }), createAccount(s)]);
  number = await buyTestNumber(a, '212');
  bNumber = await buyTestNumber(b, '415');
});
afterAll(async () => {
  for (const so of sockets) so.close();
  await s?.close();
});

describe('opt-out keywords', () => {
  it('STOP from an unknown sender creates an unsubscribed contact and sends one confirmation, live', async () => {
    const so = await connectSocket(s, a.client);
    sockets.push(so);
    await subscribe(so, `conversations.${a.companyId}`);
    const seen: any[] = [];
    so.on('conversation updated', (e) => seen.push(e));

    const from = '+13125550401';
    const p = await inbound(from, 'stop');
    const [contact] = await contactOf(a.companyId, from);
    expect(contact).toMatchObject({ is_unsubscribed: true, source: 'keyword' });
    const conv = await conversationOf(from);
    expect(conv.contact).toMatchObject({ id: contact!.id, subscribed: false });
    expect(await outboundTexts(from)).toEqual([OPT_OUT_CONFIRMATION]);
    const ev = await eventually(async () => seen.find((e) => e.id === conv.id && e.item?.details.content === OPT_OUT_CONFIRMATION));
    expect(ev.contact.subscribed).toBe(false);
    // The confirmation really goes out through the carrier.
    await eventually(async () => {
      const handset = await a.client.get(`/api/simulator/handsets/${encodeURIComponent(from)}/messages`);
      return JSON.stringify(handset.body).includes(OPT_OUT_CONFIRMATION);
    }, 15_000);

    // The same delivery again, and a second STOP: still one confirmation.
    expect((await postWebhook(s, '/webhooks/twilio/messaging', p)).status).toBe(200);
    await inbound(from, ' Stop ');
    expect(await outboundTexts(from)).toEqual([OPT_OUT_CONFIRMATION]);
    expect(await contactOf(a.companyId, from)).toHaveLength(1);
  });

  it('accepts every opt-out keyword in any case, trimmed of punctuation', async () => {
    const words = ['STOP.', 'stopall', 'Unsubscribe', 'CANCEL', 'end', 'Quit', 'revoke', 'OptOut'];
    for (const [i, w] of words.entries()) await inbound(`+1312555050${i}`, w);
    for (const [i, w] of words.entries()) {
      const [c] = await contactOf(a.companyId, `+1312555050${i}`);
      expect(c?.is_unsubscribed, w).toBe(true);
      expect(await outboundTexts(`+1312555050${i}`), w).toEqual([OPT_OUT_CONFIRMATION]);
    }
  });

  it('does not treat sentences as keywords', async () => {
    for (const [i, w] of ['please stop', 'stop it', 'STOP STOP', 'stopping'].entries()) await inbound(`+1312555060${i}`, w);
    for (let i = 0; i < 4; i++) {
      expect(await contactOf(a.companyId, `+1312555060${i}`)).toHaveLength(0);
      expect(await outboundTexts(`+1312555060${i}`)).toEqual([]);
    }
  });

  it('unsubscribes an existing contact of that company only; the inbox then refuses to send', async () => {
    const from = '+13125550701';
    const mine = await createContact(s.ctx, a.companyId, { name: 'Dana Smith', number: from });
    const theirs = await createContact(s.ctx, b.companyId, { name: 'Dana Smith', number: from });
    await inbound(from, 'STOP');
    expect((await contactOf(a.companyId, from)).map((c) => [c.id, c.is_unsubscribed])).toEqual([[mine.id, true]]);
    expect((await contactOf(b.companyId, from)).map((c) => [c.id, c.is_unsubscribed])).toEqual([[theirs.id, false]]);
    const refused = await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: from, content: 'Are you sure?' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.to).toEqual([RECIPIENT_UNSUBSCRIBED]);
    expect((await b.client.post('/api/message', { company_id: b.companyId, number_id: bNumber.id, to: from, content: 'hi' })).status).toBe(201);
  });

  it('START, YES and UNSTOP resubscribe with one confirmation; a plain "yes" from a subscribed person gets no reply', async () => {
    const from = '+13125550801';
    await inbound(from, 'STOP');
    await inbound(from, 'start');
    const [c] = await contactOf(a.companyId, from);
    expect(c!.is_unsubscribed).toBe(false);
    expect((await conversationOf(from)).contact.subscribed).toBe(true);
    await inbound(from, 'YES');
    expect((await outboundTexts(from)).sort()).toEqual([OPT_IN_CONFIRMATION, OPT_OUT_CONFIRMATION].sort());
    await inbound(from, 'Unsubscribe');
    await inbound(from, 'unstop!');
    expect((await outboundTexts(from)).filter((t) => t === OPT_IN_CONFIRMATION)).toHaveLength(2);

    await inbound('+13125550802', 'Yes');
    expect(await outboundTexts('+13125550802')).toEqual([]);
    expect((await a.client.post('/api/message', { company_id: a.companyId, number_id: number.id, to: from, content: 'Welcome back' })).status).toBe(201);
  });

  it('HELP and INFO answer with the company help text, or a default naming the company', async () => {
    await inbound('+13125550901', 'help');
    expect(await outboundTexts('+13125550901')).toEqual([`${companyName}: ${DEFAULT_HELP_TEXT}`]);
    await sql`update companies set help_text = ${'Acme: call 212-555-0100 for help.'} where id = ${a.companyId}`.execute(s.ctx.db);
    await inbound('+13125550902', 'Info');
    expect(await outboundTexts('+13125550902')).toEqual(['Acme: call 212-555-0100 for help.']);
    expect(await contactOf(a.companyId, '+13125550902')).toHaveLength(0);
  });
});
