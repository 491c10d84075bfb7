/**
 * The consumer area through the real server (docs/consumer-area.md): two-step sign-up and sign-in by e-mail and SMS
 * codes (expiry, attempt limit, 409, 401), sessions kept apart from the business product's, profile, password change
 * and reset, catalogue, numbers and activation with the 30-day dates, reclaim, release after the date and reminders,
 * usage metered from a text received through the sandbox carrier and sent live on the `caddy` channel (Socket.IO), plan limits, invitations with their
 * limits and opt-out, one review per account, support upload and report (operators only read files), deletion with
 * its audit entry, and tenant isolation of every `/caddy` route.
 */
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, uniqueEmail, type Account } from '../../../test/fixtures.js';
import { ApiClient, eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { handsetMessages, simulateMessage } from '../../carriers/sandbox/sandbox.simulator.js';
import { hasAuditEntry } from '../audit/audit.service.js';
import { CODE_MAX_ATTEMPTS } from './caddy.accounts.js';
import { runCaddyTick } from './caddy.numbers.js';
import { caddyRepository } from './caddy.repository.js';

let s: TestServer;
let business: Account;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  s = await startTestServer();
  business = await createAccount(s);
}, 120_000);

afterAll(async () => {
  await s?.close();
});

/** The newest 6-digit code e-mailed to `email`. */
async function mailedCode(email: string): Promise<string> {
  return eventually(async () => {
    const [mail] = await s.ctx.mailer.outbox(1, email);
    return mail ? /\b(\d{6})\b/.exec(mail.subject)?.[1] : undefined;
  });
}
/** The newest 6-digit code texted to `phone` (the sandbox handset). */
async function textedCode(phone: string): Promise<string> {
  return eventually(async () => {
    const msgs = await handsetMessages(s.ctx, phone);
    const last = msgs.filter((m) => /Caddy code/.test(m.body)).at(-1);
    return last ? /\b(\d{6})\b/.exec(last.body)?.[1] : undefined;
  });
}

/** Signs a new consumer up by e-mail; answers a client carrying their token. */
async function signUp(name = 'Sam'): Promise<{ client: ApiClient; email: string; accountId: number }> {
  const email = uniqueEmail('caddy');
  const client = new ApiClient(s.url);
  const first = await client.post('/api/caddy/auth/register', { provider: 'email', email, password: 'correct horse 42', name });
  expect(first.status, JSON.stringify(first.body)).toBe(202);
  const second = await client.post('/api/caddy/auth/register', { provider: 'email', email, code: await mailedCode(email) });
  expect(second.status, JSON.stringify(second.body)).toBe(200);
  client.bearer = second.body.data.token;
  return { client, email, accountId: second.body.data.accountId };
}

describe('consumer area', () => {
  it('signs up and in with codes: 202 then the session; 409, 401, wrong and expired codes', async () => {
    const email = uniqueEmail('caddy');
    const c = new ApiClient(s.url);
    // Validation: 422 with field errors, never 500.
    expect((await c.post('/api/caddy/auth/register', { provider: 'email' })).body.errors.email).toBeDefined();
    expect((await c.post('/api/caddy/auth/register', { provider: 'email', email, password: 'short' })).status).toBe(422);
    expect((await c.post('/api/caddy/auth/register', { provider: 'fax', email })).status).toBe(422);
    expect((await c.post('/api/caddy/auth/register', 'not json')).status).toBe(422);
    const first = await c.post('/api/caddy/auth/register', { provider: 'email', email, password: 'correct horse 42', name: 'Ana' });
    expect(first.status).toBe(202);
    expect(first.body).toMatchObject({ codeSent: true, channel: 'email' });
    const code = await mailedCode(email);
    // A resend within 30 s is refused (429 with Retry-After).
    const again = await c.post('/api/caddy/auth/register', { provider: 'email', email, password: 'correct horse 42' });
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const wrong = code === '000000' ? '111111' : '000000';
    const bad = await c.post('/api/caddy/auth/register', { provider: 'email', email, code: wrong });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.code[0]).toMatch(/not valid/);
    const ok = await c.post('/api/caddy/auth/register', { provider: 'email', email, code });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ plan: 'starter', subscriptionStatus: 'not_subscribed' });
    expect(ok.body.data.iapId).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof ok.body.data.token).toBe('string');
    // The code is single use; the account exists now: 409.
    expect((await c.post('/api/caddy/auth/register', { provider: 'email', email, password: 'correct horse 42' })).status).toBe(409);

    // Sign-in: 401 for other providers and unknown accounts, 401 on a wrong password, then two steps.
    expect((await c.post('/api/caddy/auth/login', { provider: 'apple', email })).status).toBe(401);
    expect((await c.post('/api/caddy/auth/login', { provider: 'email', email: uniqueEmail('nobody') })).status).toBe(401);
    expect((await c.post('/api/caddy/auth/login', { provider: 'email', email, password: 'wrong password' })).status).toBe(401);
    await caddyRepository.lastCodeAt(s.ctx.db, 'login', email); // no code sent for a wrong password
    expect((await s.ctx.mailer.outbox(5, email)).filter((m) => /Your code/.test(m.subject))).toHaveLength(1);
    const step1 = await c.post('/api/caddy/auth/login', { provider: 'email', email, password: 'correct horse 42' });
    expect(step1.status).toBe(202);
    const loginCode = await mailedCode(email);
    // Too many wrong codes kill the code: even the right one is then refused as expired.
    for (let i = 0; i < CODE_MAX_ATTEMPTS; i++) {
      const r = await c.post('/api/caddy/auth/login', { provider: 'email', email, code: loginCode === '000000' ? '111111' : '000000' });
      expect(r.status).toBe(422);
    }
    const dead = await c.post('/api/caddy/auth/login', { provider: 'email', email, code: loginCode });
    expect(dead.body.errors.code[0]).toMatch(/expired/);
    // An expired code is refused too.
    await s.ctx.db
      .updateTable('caddy_codes')
      .set({ created_at: new Date(Date.now() - 60_000) })
      .where('target', '=', email)
      .execute();
    expect((await c.post('/api/caddy/auth/login', { provider: 'email', email, password: 'correct horse 42' })).status).toBe(202);
    const c2 = await mailedCode(email);
    await s.ctx.db
      .updateTable('caddy_codes')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('target', '=', email)
      .where('consumed_at', 'is', null)
      .execute();
    expect((await c.post('/api/caddy/auth/login', { provider: 'email', email, code: c2 })).body.errors.code[0]).toMatch(/expired/);
  });

  it('signs up by phone with a texted code; sessions never cross between the consumer area and the business product', async () => {
    const phone = `+1512555${String(1000 + Math.floor(Math.random() * 8999))}`;
    const c = new ApiClient(s.url);
    expect((await c.post('/api/caddy/auth/register', { provider: 'phone', phoneNumber: 'abc' })).body.errors.phoneNumber).toBeDefined();
    expect((await c.post('/api/caddy/auth/register', { provider: 'phone', phoneNumber: phone })).status).toBe(202);
    const r = await c.post('/api/caddy/auth/register', { provider: 'phone', phoneNumber: phone, code: await textedCode(phone) });
    expect(r.status).toBe(200);
    const token = r.body.data.token as string;
    // A consumer token reaches no business route; a business session reaches no consumer route.
    const asConsumer = new ApiClient(s.url);
    asConsumer.bearer = token;
    expect((await asConsumer.get('/api/user')).status).toBe(401);
    expect((await asConsumer.get(`/api/companies/${business.companyId}/numbers`)).status).toBe(401);
    expect((await business.client.get('/api/caddy/profile')).status).toBe(401);
    expect((await business.client.get('/api/caddy/numbers')).status).toBe(401);
    const noToken = new ApiClient(s.url);
    expect((await noToken.get('/api/caddy/profile')).status).toBe(401);
    noToken.bearer = 'not-a-token';
    expect((await noToken.get('/api/caddy/profile')).status).toBe(401);
    const profile = await asConsumer.get('/api/caddy/profile');
    expect(profile.body.data).toMatchObject({ phoneNumber: phone, email: null, hasPassword: false, plan: 'starter', planLabel: 'Starter' });
    // Phone sign-in: a code by SMS, then the session.
    expect((await c.post('/api/caddy/auth/login', { provider: 'phone', phoneNumber: phone })).status).toBe(202);
    // Sign-out ends the session on the server: the token stops working at once.
    expect((await asConsumer.post('/api/caddy/auth/logout', {})).status).toBe(200);
    expect((await asConsumer.get('/api/caddy/profile')).status).toBe(401);
    expect((await asConsumer.post('/api/caddy/auth/logout', {})).status).toBe(401);
  });

  it('profile, password change and reset by code', async () => {
    const a = await signUp('Lee');
    expect((await a.client.put('/api/caddy/profile', { name: '' })).status).toBe(422);
    expect((await a.client.put('/api/caddy/profile', { name: 'Lee Park' })).status).toBe(200);
    expect((await a.client.get('/api/caddy/profile')).body.data.name).toBe('Lee Park');
    expect((await a.client.put('/api/caddy/auth/password', { currentPassword: 'nope nope', password: 'battery staple 43' })).status).toBe(422);
    expect((await a.client.put('/api/caddy/auth/password', { currentPassword: 'correct horse 42', password: 'battery staple 43' })).status).toBe(200);
    // Reset: same answer for unknown e-mails; the code sets a new password and ends every session.
    const anon = new ApiClient(s.url);
    expect((await anon.post('/api/caddy/auth/password/reset/code', { email: uniqueEmail('nobody') })).status).toBe(200);
    expect((await anon.post('/api/caddy/auth/password/reset/code', { email: a.email })).status).toBe(200);
    const code = await mailedCode(a.email);
    expect((await anon.post('/api/caddy/auth/password/reset', { email: a.email, code: '999999', password: 'new password 44' })).status).toBe(422);
    expect((await anon.post('/api/caddy/auth/password/reset', { email: a.email, code, password: 'new password 44' })).status).toBe(200);
    expect((await a.client.get('/api/caddy/profile')).status).toBe(401);
    expect((await anon.post('/api/caddy/auth/login', { provider: 'email', email: a.email, password: 'battery staple 43' })).status).toBe(401);
    expect((await anon.post('/api/caddy/auth/login', { provider: 'email', email: a.email, password: 'new password 44' })).status).toBe(202);
  });

  it('catalogue, numbers, activation with 30-day dates, reclaim, release after the date, reminders, usage live, limits, isolation', async () => {
    const a = await signUp('Kim');
    const b = await signUp('Bo');
    expect((await a.client.get('/api/caddy/catalog?areaCode=12')).body.errors.areaCode).toBeDefined();
    const offer = await a.client.get('/api/caddy/catalog?areaCode=415&limit=3');
    expect(offer.status).toBe(200);
    expect(offer.body.data.length).toBeGreaterThan(0);
    const random = await a.client.get('/api/caddy/catalog/random');
    expect(random.body.data.length).toBeGreaterThan(0);
    const added = await a.client.post('/api/caddy/catalog/add', { number: offer.body.data[0].number });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    const first = added.body.data;
    expect(first).toMatchObject({ isActive: true, willBeRemovedAt: null });
    // The Starter plan includes one active number: a clear 422.
    const over = await a.client.post('/api/caddy/catalog/add', { number: offer.body.data[1].number });
    expect(over.status).toBe(422);
    expect(over.body.errors.number[0]).toMatch(/Starter plan includes 1 active number/);
    // A premium plan (as the store would set it) allows three.
    await caddyRepository.updateAccount(s.ctx.db, a.accountId, { plan: 'premium_monthly', subscription_status: 'active' });
    const second = (await a.client.post('/api/caddy/catalog/add', { number: offer.body.data[1].number })).body.data;
    expect(second.isActive).toBe(true);
    // Activation: the chosen one active, the other inactive with a removal date 30 days ahead.
    const before = Date.now();
    const act = await a.client.put('/api/caddy/numbers/activate', { ids: [first.id] });
    expect(act.status).toBe(200);
    const other = act.body.data.find((n: { id: number }) => n.id === second.id);
    expect(other.isActive).toBe(false);
    const removeAt = new Date(other.willBeRemovedAt).getTime();
    expect(removeAt - before).toBeGreaterThanOrEqual(30 * DAY - 5000);
    expect(removeAt - before).toBeLessThanOrEqual(30 * DAY + 60_000);
    expect(act.body.data.find((n: { id: number }) => n.id === first.id)).toMatchObject({ isActive: true, willBeRemovedAt: null });
    const inactivity = await a.client.get('/api/caddy/inactivity');
    expect(inactivity.body.data).toEqual([expect.objectContaining({ id: second.id, daysLeft: 30 })]);
    // Re-activating others never extends an inactive number's date.
    const again = await a.client.put('/api/caddy/numbers/activate', { ids: [first.id] });
    expect(again.body.data.find((n: { id: number }) => n.id === second.id).willBeRemovedAt).toBe(other.willBeRemovedAt);
    // Reclaim: choosing it again before the date.
    const reclaim = await a.client.put('/api/caddy/numbers/activate', { ids: [first.id, second.id] });
    expect(reclaim.body.data.every((n: { isActive: boolean; willBeRemovedAt: string | null }) => n.isActive && n.willBeRemovedAt === null)).toBe(true);
    expect((await a.client.get('/api/caddy/inactivity')).body.data).toEqual([]);
    await a.client.put('/api/caddy/numbers/activate', { ids: [first.id] });
    // Reminders 7 and 1 days before, once each; release after the date.
    const in23 = new Date(Date.now() + 23 * DAY + 3600_000);
    expect((await runCaddyTick(s.ctx, in23)).reminded).toBe(1);
    expect((await runCaddyTick(s.ctx, in23)).reminded).toBe(0);
    expect((await s.ctx.mailer.outbox(5, a.email)).some((m) => /will be removed/.test(m.subject))).toBe(true);
    const in29 = new Date(Date.now() + 29 * DAY + 3600_000);
    expect((await runCaddyTick(s.ctx, in29)).reminded).toBe(1);
    const tick = await runCaddyTick(s.ctx, new Date(Date.now() + 31 * DAY));
    expect(tick.released).toBeGreaterThanOrEqual(1);
    expect((await a.client.get('/api/caddy/numbers')).body.data.map((n: { id: number }) => n.id)).toEqual([first.id]);

    // Tenant isolation: B reaches none of A's numbers.
    expect((await b.client.delete(`/api/caddy/numbers/${first.id}`)).status).toBe(404);
    expect((await b.client.put('/api/caddy/numbers/activate', { ids: [first.id] })).status).toBe(404);
    expect((await b.client.post('/api/caddy/catalog/replace', { id: first.id, number: offer.body.data[2].number })).status).toBe(404);
    expect((await b.client.get(`/api/caddy/numbers/${first.id}/activity`)).status).toBe(404);
    expect((await b.client.post(`/api/caddy/numbers/${first.id}/messages`, { to: '+14155550100', body: 'hi' })).status).toBe(404);
    expect((await b.client.get('/api/caddy/numbers')).body.data).toEqual([]);
    expect((await b.client.get('/api/caddy/inactivity')).body.data).toEqual([]);
    expect((await b.client.get('/api/caddy/billing/usage')).body.data.textsUsed).toBe(0);
    expect((await b.client.put('/api/caddy/numbers/activate', { ids: ['x'] })).status).toBe(422);
    expect((await b.client.delete('/api/caddy/numbers/abc')).status).toBe(422);

    // Usage: live on the `caddy` channel (Socket.IO namespace /caddy), then a text from an outside phone (the sandbox
    // carrier) counts once and is pushed to A's socket.
    const socket = io(`${s.url}/caddy`, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: a.client.bearer },
      reconnection: false,
      forceNew: true,
    });
    const heard: Array<{ event: string; payload: { textsUsed: number; textsIn: number } }> = [];
    socket.onAny((event: string, payload: { textsUsed: number; textsIn: number }) => heard.push({ event, payload }));
    await eventually(async () => heard.find((h) => h.event === 'usage updated' && h.payload.textsUsed === 0));
    const sent = await simulateMessage(s.ctx, { from: '+14155550123', to: first.number, body: 'Hello from outside' });
    expect(sent).toBeTruthy();
    await eventually(async () => heard.find((h) => h.event === 'usage updated' && h.payload.textsIn === 1));
    socket.disconnect();
    const usage = (await a.client.get('/api/caddy/billing/usage')).body.data;
    expect(usage).toMatchObject({ textsIn: 1, textsUsed: 1, plan: 'premium_monthly', numbersUsed: 1, numbersLimit: 3 });
    const activity = await eventually(async () => {
      const r = await a.client.get(`/api/caddy/numbers/${first.id}/activity`);
      return r.body.data.length ? r.body.data : undefined;
    });
    expect(activity[0]).toMatchObject({ kind: 'message', direction: 'inbound', otherParty: '+14155550123', body: 'Hello from outside' });
    // A text out counts once; the plan's texts used up → a clear refusal.
    const out = await a.client.post(`/api/caddy/numbers/${first.id}/messages`, { to: '+14155550123', body: 'Hi back' });
    expect(out.status, JSON.stringify(out.body)).toBe(200);
    await eventually(async () => ((await a.client.get('/api/caddy/billing/usage')).body.data.textsOut === 1 ? true : undefined));
    await caddyRepository.updateAccount(s.ctx.db, a.accountId, { plan: 'starter' });
    await caddyRepository.addUsage(s.ctx.db, a.accountId, `${new Date().toISOString().slice(0, 7)}-01`, { textsOut: 200 });
    const refused = await a.client.post(`/api/caddy/numbers/${first.id}/messages`, { to: '+14155550123', body: 'One more' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.body[0]).toMatch(/used all 100 texts your Starter plan includes/);
    // Replace and remove.
    await caddyRepository.updateAccount(s.ctx.db, a.accountId, { plan: 'premium_monthly' });
    const replaced = await a.client.post('/api/caddy/catalog/replace', { id: first.id, number: offer.body.data[2].number });
    expect(replaced.status, JSON.stringify(replaced.body)).toBe(200);
    expect(replaced.body.data).toMatchObject({ number: offer.body.data[2].number, isActive: true });
    expect((await a.client.delete(`/api/caddy/numbers/${replaced.body.data.id}`)).status).toBe(200);
    expect((await a.client.get('/api/caddy/numbers')).body.data).toEqual([]);
  }, 60_000);

  it('invitations with limits and opt-out, one review per account, support files for operators only, deletion', async () => {
    const a = await signUp('Ivy');
    const b = await signUp('Max');
    const friend = `+1737555${String(1000 + Math.floor(Math.random() * 8999))}`;
    expect((await a.client.post('/api/caddy/invitations', { phoneNumber: 'nope' })).status).toBe(422);
    const inv = await a.client.post('/api/caddy/invitations', { phoneNumber: friend });
    expect(inv.status, JSON.stringify(inv.body)).toBe(200);
    expect((await handsetMessages(s.ctx, friend)).at(-1)?.body).toMatch(/invited you to Caddy.*\/caddy\/signup Reply STOP/);
    // One invitation per recipient per week, from anyone.
    expect((await b.client.post('/api/caddy/invitations', { phoneNumber: friend })).body.errors.phoneNumber[0]).toMatch(/last 7 days/);
    // Opt-out: a STOP reply to the sender number.
    const stopper = `+1737556${String(1000 + Math.floor(Math.random() * 8999))}`;
    await caddyRepository.optOut(s.ctx.db, stopper);
    expect((await a.client.post('/api/caddy/invitations', { phoneNumber: stopper })).body.errors.phoneNumber[0]).toMatch(/asked not to/);
    // Ten a day per account.
    for (let i = 0; i < 9; i++) expect((await a.client.post('/api/caddy/invitations', { phoneNumber: `+1737557${String(1000 + i)}` })).status).toBe(200);
    expect((await a.client.post('/api/caddy/invitations', { phoneNumber: '+17375579999' })).status).toBe(429);
    // The friend joins: the invitation shows it.
    const c = new ApiClient(s.url);
    await c.post('/api/caddy/auth/register', { provider: 'phone', phoneNumber: friend });
    await c.post('/api/caddy/auth/register', { provider: 'phone', phoneNumber: friend, code: await textedCode(friend) });
    const list = await a.client.get('/api/caddy/invitations?page=1&perPage=1000');
    expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 1000, total: 10 });
    expect(list.body.data.find((i: { phoneNumber: string }) => i.phoneNumber === friend).status).toBe('joined');
    expect((await b.client.get('/api/caddy/invitations')).body.data).toEqual([]);

    // Reviews: one per account, editable.
    expect((await a.client.get('/api/caddy/reviews')).body.data).toBeNull();
    expect((await a.client.post('/api/caddy/reviews', { rating: 6 })).status).toBe(422);
    expect((await a.client.post('/api/caddy/reviews', { rating: 4, comment: 'Good' })).status).toBe(200);
    expect((await a.client.post('/api/caddy/reviews', { rating: 5, comment: 'Great' })).body.data).toMatchObject({ rating: 5, comment: 'Great' });
    expect((await a.client.get('/api/caddy/reviews')).body.data).toMatchObject({ rating: 5 });
    expect((await b.client.get('/api/caddy/reviews')).body.data).toBeNull();

    // Support: type and size limits, files for operators only.
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'shot.png');
    const up = await a.client.request('POST', '/api/caddy/support/upload-file', form);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const exe = new FormData();
    exe.append('file', new Blob([Buffer.from([0x4d, 0x5a, 0, 0, 0xff])], { type: 'image/png' }), 'evil.png');
    expect((await a.client.request('POST', '/api/caddy/support/upload-file', exe)).body.errors.file[0]).toMatch(/must be an image/);
    expect((await a.client.request('POST', '/api/caddy/support/upload-file', new FormData())).status).toBe(422);
    const report = new FormData();
    report.append('subject', 'Cannot call');
    report.append('message', 'Calls drop after a minute.');
    report.append('fileIds[]', up.body.data.id);
    report.append('files[]', new Blob([Buffer.from('log line\n')], { type: 'text/plain' }), 'log.txt');
    const sentReport = await a.client.request('POST', '/api/caddy/support/customer-report', report);
    expect(sentReport.status, JSON.stringify(sentReport.body)).toBe(200);
    expect(sentReport.body.data.files).toBe(2);
    expect(
      (
        await b.client.request(
          'POST',
          '/api/caddy/support/customer-report',
          (() => {
            const f = new FormData();
            f.append('subject', 'x');
            f.append('message', 'y');
            f.append('fileIds[]', up.body.data.id);
            return f;
          })(),
        )
      ).status,
    ).toBe(422);
    expect((await a.client.request('POST', '/api/caddy/support/customer-report', new FormData())).body.errors.subject).toBeDefined();
    expect((await business.client.get(`/api/caddy/support/files/${up.body.data.id}`)).status).toBe(403);
    expect((await a.client.get(`/api/caddy/support/files/${up.body.data.id}`)).status).toBe(401);

    // Deletion: numbers released, account gone, audit entry, the store subscription named.
    const offer = await b.client.get('/api/caddy/catalog?areaCode=305&limit=1');
    await b.client.post('/api/caddy/catalog/add', { number: offer.body.data[0].number });
    const companyOfB = (await caddyRepository.findAccount(s.ctx.db, b.accountId))!.company_id;
    const del = await b.client.delete('/api/caddy/accounts');
    expect(del.status).toBe(200);
    expect(del.body.message).toMatch(/subscription is not cancelled/);
    expect((await b.client.get('/api/caddy/profile')).status).toBe(401);
    expect(await caddyRepository.findAccount(s.ctx.db, b.accountId)).toBeUndefined();
    expect(await hasAuditEntry(s.ctx, companyOfB, 'caddy_account', String(b.accountId), 'caddy.account.deleted')).toBe(true);
  }, 60_000);

  it('documents every consumer call in the OpenAPI document with examples and who may call', async () => {
    const res = await fetch(`${s.url}/api/docs/json`);
    expect(res.status, await res.clone().text()).toBe(200);
    const doc = (await res.json()) as any;
    const ops = Object.entries(doc.paths as Record<string, Record<string, { operationId: string; description?: string }>>).flatMap(([path, m]) =>
      Object.entries(m).map(([method, op]) => ({ path, method, op })),
    );
    const caddy = ops.filter((o) => o.path.startsWith('/api/caddy/'));
    if (process.env.PRINT_CADDY_IDS) console.log(caddy.map((o) => `${o.op.operationId} ${o.method.toUpperCase()} ${o.path}`).join('\n'));
    expect(caddy.length).toBeGreaterThanOrEqual(23);
    for (const o of caddy) {
      expect(o.op.operationId).toMatch(/^[a-z][A-Za-z]+$/);
      expect(o.op.description).toMatch(/Access: (anyone \(consumer area|a consumer session|platform operators)/);
    }
    expect(JSON.stringify(doc.paths['/api/caddy/auth/register'].post)).toMatch(/"examples?"/);
    // Every consumer call (the 23 and the extra ones) shows an example of what it takes or answers.
    const withoutExamples = caddy.filter((o) => !/"examples?"/.test(JSON.stringify(o.op))).map((o) => `${o.method.toUpperCase()} ${o.path}`);
    expect(withoutExamples).toEqual([]);
    // The calls in the browser are documented too.
    for (const p of ['/api/caddy/calling', '/api/caddy/numbers/{id}/calls', '/api/caddy/calls/connect', '/api/caddy/calls/{callId}/answer'])
      expect(doc.paths[p], p).toBeDefined();
  });
});
