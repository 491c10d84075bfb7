/**
 * Consumer app-store subscriptions through the real server and the sandbox store (docs/consumer-area.md "Store
 * subscriptions"): every Apple and Google notification type mapped to its status and plan, App Store JWS verified by
 * Apple's `SignedDataVerifier` (a tampered one refused with 401, nothing changed), Google pushes authenticated by their
 * OIDC token and read back, replays and older notifications changing nothing, expiry starting the 30-day removal of
 * the numbers and a renewal restoring them, a paused Google subscription keeping its numbers until it resumes, and
 * the sandbox store's subscribe/cancel round trip as the screens use it.
 */
import { CADDY_REMOVAL_DAYS } from '@switchboard/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../../test/fixtures.js';
import { ApiClient, eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { caddyRepository } from './caddy.repository.js';
import { APPLE_MAPPING, GOOGLE_TYPES } from './stores/mapping.js';
import type { SandboxStore } from './stores/index.js';
import type { StoreDelivery } from './stores/sandbox/sandbox-store.js';
import { storesRepository } from './stores/stores.repository.js';

let s: TestServer;
let sandbox: SandboxStore;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  s = await startTestServer();
  sandbox = s.app.caddyStores!.sandbox!;
}, 120_000);

afterAll(async () => {
  await s?.close();
});

/** Signs a new consumer up by e-mail; answers a client carrying their token and the account. */
async function signUp(): Promise<{ client: ApiClient; accountId: number; iapId: string }> {
  const email = uniqueEmail('caddy-store');
  const client = new ApiClient(s.url);
  expect((await client.post('/api/caddy/auth/register', { provider: 'email', email, password: 'correct horse 42', name: 'Sam' })).status).toBe(202);
  const code = await eventually(async () => {
    const [mail] = await s.ctx.mailer.outbox(1, email);
    return mail ? /\b(\d{6})\b/.exec(mail.subject)?.[1] : undefined;
  });
  const second = await client.post('/api/caddy/auth/register', { provider: 'email', email, code });
  expect(second.status, JSON.stringify(second.body)).toBe(200);
  client.bearer = second.body.data.token;
  return { client, accountId: second.body.data.accountId, iapId: second.body.data.iapId };
}

/** Posts a store delivery to the webhook as the store would (a plain HTTP client, no session). */
async function post(delivery: StoreDelivery, tamper?: (body: unknown) => unknown) {
  const res = await fetch(`${s.url}${delivery.url}`, {
    method: 'POST',
    headers: delivery.headers,
    body: JSON.stringify(tamper ? tamper(delivery.body) : delivery.body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function account(id: number) {
  return (await caddyRepository.findAccount(s.ctx.db, id))!;
}

/** Adds `n` numbers from the sandbox catalogue (the plan must allow them active). */
async function addNumbers(client: ApiClient, n: number): Promise<number[]> {
  const found = await client.get('/api/caddy/catalog?areaCode=415&limit=10');
  expect(found.status).toBe(200);
  const ids: number[] = [];
  for (const c of found.body.data.slice(0, n)) {
    const added = await client.post('/api/caddy/catalog/add', { number: c.number });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    ids.push(added.body.data.id);
  }
  return ids;
}

describe('consumer store subscriptions', () => {
  it('the sandbox store subscribes and cancels, and the profile shows it (the screens’ round trip)', async () => {
    const { client } = await signUp();
    expect((await client.get('/api/caddy/profile')).body.data.subscriptionStatus).toBe('not_subscribed');
    // Validation and access: 422 with field errors; a consumer session is needed; a business-less token 401.
    expect((await client.post('/api/caddy/stores/sandbox/subscribe', { plan: 'starter' })).status).toBe(422);
    expect((await client.post('/api/caddy/stores/sandbox/notifications', { store: 'apple', type: 'NOPE' })).body.errors.type).toBeDefined();
    expect((await new ApiClient(s.url).post('/api/caddy/stores/sandbox/subscribe', { plan: 'premium_monthly' })).status).toBe(401);
    expect((await client.post('/api/caddy/stores/sandbox/cancel', {})).status).toBe(404); // nothing to cancel yet

    const sub = await client.post('/api/caddy/stores/sandbox/subscribe', { store: 'apple', plan: 'premium_monthly' });
    expect(sub.status, JSON.stringify(sub.body)).toBe(200);
    expect(sub.body.data.webhook).toEqual({ status: 200, applied: true, duplicate: false });
    expect(sub.body.data.subscription).toMatchObject({
      plan: 'premium_monthly',
      subscriptionStatus: 'active',
      subscriptionStore: 'apple',
      productId: 'com.switchboard.caddy.premium_monthly',
    });
    expect((await client.post('/api/caddy/stores/sandbox/subscribe', { store: 'apple', plan: 'premium_monthly' })).status).toBe(409);
    const cancel = await client.post('/api/caddy/stores/sandbox/cancel', {});
    expect(cancel.body.data.subscription).toMatchObject({ plan: 'premium_monthly', subscriptionStatus: 'canceling' });
    const profile = (await client.get('/api/caddy/profile')).body.data;
    expect(profile).toMatchObject({ plan: 'premium_monthly', subscriptionStatus: 'canceling', subscriptionStore: 'apple' });
    expect(Date.parse(profile.subscriptionExpiresAt)).toBeGreaterThan(Date.now() + 25 * DAY);
    // The same through Google Play.
    const g = await signUp();
    const gs = await g.client.post('/api/caddy/stores/sandbox/subscribe', { store: 'google', plan: 'deluxe_yearly' });
    expect(gs.body.data.subscription).toMatchObject({ plan: 'deluxe_yearly', subscriptionStatus: 'active', subscriptionStore: 'google' });
    expect((await g.client.post('/api/caddy/stores/sandbox/cancel', {})).body.data.subscription.subscriptionStatus).toBe('canceling');
  });

  it('maps every Apple notification type to its status and plan', async () => {
    const { client, accountId } = await signUp();
    const steps: [type: string, subtype: string | undefined, status: string, plan: string, extra?: Record<string, unknown>][] = [
      ['SUBSCRIBED', undefined, 'active', 'premium_monthly', { plan: 'premium_monthly' }],
      ['DID_CHANGE_RENEWAL_STATUS', 'AUTO_RENEW_DISABLED', 'canceling', 'premium_monthly'],
      ['DID_CHANGE_RENEWAL_STATUS', 'AUTO_RENEW_ENABLED', 'active', 'premium_monthly'],
      ['DID_FAIL_TO_RENEW', 'GRACE_PERIOD', 'retry_period', 'premium_monthly'],
      ['GRACE_PERIOD_EXPIRED', undefined, 'retry_period', 'starter'],
      ['DID_RENEW', undefined, 'active', 'premium_monthly'],
      ['OFFER_REDEEMED', undefined, 'active', 'premium_monthly'],
      ['DID_CHANGE_RENEWAL_PREF', 'UPGRADE', 'active', 'deluxe_monthly', { plan: 'deluxe_monthly' }],
      ['RENEWAL_EXTENDED', undefined, 'active', 'deluxe_monthly'],
      ['PRICE_INCREASE', 'PENDING', 'active', 'deluxe_monthly'],
      ['CONSUMPTION_REQUEST', undefined, 'active', 'deluxe_monthly'],
      ['REFUND_DECLINED', undefined, 'active', 'deluxe_monthly'],
      ['TEST', undefined, 'active', 'deluxe_monthly'],
      ['DID_FAIL_TO_RENEW', undefined, 'retry_period', 'starter'],
      ['EXPIRED', 'BILLING_RETRY', 'expired', 'starter'],
      ['SUBSCRIBED', undefined, 'active', 'unlimited_yearly', { plan: 'unlimited_yearly' }],
      ['REFUND', undefined, 'refunding', 'starter'],
      ['REFUND_REVERSED', undefined, 'active', 'unlimited_yearly'],
      ['REVOKE', undefined, 'expired', 'starter'],
    ];
    const seen = new Set<string>();
    for (const [type, subtype, status, plan, extra] of steps) {
      const res = await client.post('/api/caddy/stores/sandbox/notifications', { store: 'apple', type, ...(subtype ? { subtype } : {}), ...extra });
      expect(res.status, `${type} ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.subscription, `${type}/${subtype ?? '-'}`).toMatchObject({ subscriptionStatus: status, plan });
      seen.add(type);
    }
    // Every type of the mapping table was sent (RENEWAL_EXTENSION is a summary for no one account).
    for (const row of APPLE_MAPPING) if (row.type !== 'RENEWAL_EXTENSION') expect(seen, row.type).toContain(row.type);
    const events = await storesRepository.eventsOf(s.ctx.db, accountId, 50);
    expect(events.filter((e) => e.applied).length).toBe(steps.length - 4); // the four recorded-only types changed nothing
    expect(events.find((e) => e.type === 'CONSUMPTION_REQUEST')).toMatchObject({ applied: false, store: 'apple' });
  });

  it('maps every Google Play notification type to its status, reading the subscription back', async () => {
    const { client, accountId } = await signUp();
    const steps: [type: string, status: string, plan: string, extra?: Record<string, unknown>][] = [
      ['SUBSCRIPTION_PURCHASED', 'active', 'premium_yearly', { plan: 'premium_yearly' }],
      ['SUBSCRIPTION_CANCELED', 'canceling', 'premium_yearly'],
      ['SUBSCRIPTION_RESTARTED', 'active', 'premium_yearly'],
      ['SUBSCRIPTION_IN_GRACE_PERIOD', 'retry_period', 'premium_yearly'],
      ['SUBSCRIPTION_ON_HOLD', 'retry_period', 'starter'],
      ['SUBSCRIPTION_RECOVERED', 'active', 'premium_yearly'],
      ['SUBSCRIPTION_RENEWED', 'active', 'premium_yearly'],
      ['SUBSCRIPTION_PRICE_CHANGE_CONFIRMED', 'active', 'premium_yearly'],
      ['SUBSCRIPTION_PRICE_CHANGE_UPDATED', 'active', 'premium_yearly'],
      ['SUBSCRIPTION_DEFERRED', 'active', 'premium_yearly'],
      ['SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED', 'active', 'premium_yearly'],
      ['SUBSCRIPTION_PAUSED', 'expired', 'starter'],
      ['SUBSCRIPTION_RENEWED', 'active', 'premium_yearly'],
      ['PENDING_REFUND_REVIEW', 'active', 'premium_yearly'],
      ['SUBSCRIPTION_PENDING_PURCHASE_CANCELED', 'active', 'premium_yearly', { plan: 'deluxe_monthly' }],
      ['TEST', 'active', 'premium_yearly'],
      ['VOIDED_PURCHASE', 'refunding', 'starter'],
      ['SUBSCRIPTION_PURCHASED', 'active', 'unlimited_monthly', { plan: 'unlimited_monthly' }],
      ['SUBSCRIPTION_REVOKED', 'expired', 'starter'],
      ['SUBSCRIPTION_PURCHASED', 'active', 'deluxe_monthly', { plan: 'deluxe_monthly' }],
      ['SUBSCRIPTION_EXPIRED', 'expired', 'starter'],
    ];
    const seen = new Set<string>();
    for (const [type, status, plan, extra] of steps) {
      const res = await client.post('/api/caddy/stores/sandbox/notifications', { store: 'google', type, ...extra });
      expect(res.status, `${type} ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data.subscription, type).toMatchObject({ subscriptionStatus: status, plan, subscriptionStore: 'google' });
      seen.add(type);
    }
    for (const t of GOOGLE_TYPES) expect(seen, t.name).toContain(t.name);
    const a = await account(accountId);
    expect(a.subscription_product_id).toBe('com.switchboard.caddy.deluxe_monthly');
    expect(a.subscription_purchase_id).toBeTruthy();
  });

  it('refuses a tampered or unsigned notification (401) and changes nothing', async () => {
    const { client, accountId, iapId } = await signUp();
    await client.post('/api/caddy/stores/sandbox/subscribe', { store: 'apple', plan: 'premium_monthly' });
    const before = await account(accountId);
    // Apple: the payload altered after signing (an EXPIRED passed off as signed), and a foreign signature.
    const expired = await sandbox.simulate(iapId, 'apple', 'EXPIRED');
    const renew = await sandbox.simulate(iapId, 'apple', 'DID_RENEW');
    const swap = (body: unknown) => {
      const [h, p, sig] = (body as { signedPayload: string }).signedPayload.split('.');
      const otherSig = (renew.body as { signedPayload: string }).signedPayload.split('.')[2];
      return { signedPayload: [h, p, sig === otherSig ? sig : otherSig].join('.') };
    };
    const tampered = await post(expired, swap);
    expect(tampered.status).toBe(401);
    expect(tampered.body.message).toMatch(/signature/i);
    expect((await post({ ...expired, body: { signedPayload: 'not.a.jws' } })).status).toBe(401);
    expect((await post({ ...expired, body: {} })).status).toBe(422);
    // Google: no token, a token for another audience (a forged push), and garbage data after a good token.
    const push = await sandbox.simulate(iapId, 'google', 'TEST');
    expect((await post({ ...push, headers: { 'content-type': 'application/json' } })).status).toBe(401);
    const [hh, pp, ss] = push.headers.authorization!.slice(7).split('.');
    const claims = JSON.parse(Buffer.from(pp!, 'base64url').toString()) as Record<string, unknown>;
    const forged = `${hh}.${Buffer.from(JSON.stringify({ ...claims, aud: 'https://elsewhere.example' })).toString('base64url')}.${ss}`;
    expect((await post({ ...push, headers: { ...push.headers, authorization: `Bearer ${forged}` } })).status).toBe(401);
    const garbage = await post(push, (b) => ({ ...(b as object), message: { data: 'bm90IGpzb24=', messageId: '1' } }));
    expect(garbage.status).toBe(422);
    // Nothing changed, nothing recorded for the refused ones.
    const after = await account(accountId);
    expect(after.subscription_status).toBe(before.subscription_status);
    expect(after.subscription_changed_at).toEqual(before.subscription_changed_at);
    const events = await storesRepository.eventsOf(s.ctx.db, accountId, 10);
    expect(events.map((e) => e.type)).toEqual(['SUBSCRIBED']);
  });

  it('takes a replayed notification once and never lets an older one regress a newer status', async () => {
    const { client, accountId, iapId } = await signUp();
    await client.post('/api/caddy/stores/sandbox/subscribe', { store: 'apple', plan: 'premium_monthly' });
    // Apple: a renewal delivered twice (the App Store retries) — the second is a duplicate.
    const renew = await sandbox.simulate(iapId, 'apple', 'DID_RENEW');
    expect((await post(renew)).body).toMatchObject({ applied: true, duplicate: false, status: 'active' });
    expect((await post(renew)).body).toMatchObject({ applied: false, duplicate: true });
    // An EXPIRED signed before the renewal arrives after it: recorded, not applied.
    const older = await sandbox.simulate(iapId, 'apple', 'EXPIRED', { at: Date.now() - 3600_000 });
    expect((await post(older)).body).toMatchObject({ applied: false, duplicate: false });
    expect((await account(accountId)).subscription_status).toBe('active');
    // Google: the same with a Pub/Sub redelivery and an out-of-order message.
    const g = await signUp();
    await g.client.post('/api/caddy/stores/sandbox/subscribe', { store: 'google', plan: 'premium_monthly' });
    const cancel = await sandbox.simulate(g.iapId, 'google', 'SUBSCRIPTION_CANCELED');
    expect((await post(cancel)).body).toMatchObject({ applied: true, status: 'canceling' });
    expect((await post(cancel)).body).toMatchObject({ duplicate: true, applied: false });
    const stale = await sandbox.simulate(g.iapId, 'google', 'SUBSCRIPTION_RENEWED', { at: Date.now() - 3600_000 });
    expect((await post(stale)).body).toMatchObject({ applied: false, duplicate: false });
    expect((await account(g.accountId)).subscription_status).toBe('canceling');
    // A notification naming no account of ours is acknowledged and recorded only.
    const nobody = await sandbox.simulate('00000000-0000-4000-8000-000000000000', 'google', 'SUBSCRIPTION_PURCHASED', { plan: 'premium_monthly' });
    expect((await post(nobody)).body).toMatchObject({ received: true, applied: false });
  });

  it('expiry starts the 30-day removal of the numbers, a grace period keeps them, a renewal restores them', async () => {
    const { client, accountId } = await signUp();
    await client.post('/api/caddy/stores/sandbox/subscribe', { store: 'apple', plan: 'premium_monthly' });
    const ids = await addNumbers(client, 3); // premium: 3 active numbers
    const send = (type: string, subtype?: string) =>
      client.post('/api/caddy/stores/sandbox/notifications', { store: 'apple', type, ...(subtype ? { subtype } : {}) });
    expect((await send('DID_FAIL_TO_RENEW', 'GRACE_PERIOD')).body.data.subscription.subscriptionStatus).toBe('retry_period');
    let numbers = (await client.get('/api/caddy/numbers')).body.data;
    expect(numbers.every((n: { isActive: boolean }) => n.isActive)).toBe(true); // grace keeps service
    const t0 = Date.now();
    expect((await send('EXPIRED', 'BILLING_RETRY')).body.data.subscription).toMatchObject({ subscriptionStatus: 'expired', plan: 'starter' });
    numbers = (await client.get('/api/caddy/numbers')).body.data;
    for (const n of numbers) {
      expect(n.isActive).toBe(false);
      const at = Date.parse(n.willBeRemovedAt);
      expect(at).toBeGreaterThanOrEqual(t0 + CADDY_REMOVAL_DAYS * DAY - 1000);
      expect(at).toBeLessThanOrEqual(Date.now() + CADDY_REMOVAL_DAYS * DAY + 1000);
    }
    const inactivity = (await client.get('/api/caddy/inactivity')).body.data;
    expect(inactivity.map((n: { id: number }) => n.id).sort()).toEqual([...ids].sort());
    expect(inactivity[0].daysLeft).toBe(CADDY_REMOVAL_DAYS);
    // The person keeps one on their own (starter allows one active number), then resubscribes: the rest come back.
    expect((await client.put('/api/caddy/numbers/activate', { ids: [ids[0]] })).status).toBe(200);
    expect(
      (await client.post('/api/caddy/stores/sandbox/subscribe', { store: 'apple', plan: 'premium_monthly' })).body.data.subscription.subscriptionStatus,
    ).toBe('active');
    numbers = (await client.get('/api/caddy/numbers')).body.data;
    expect(numbers.filter((n: { isActive: boolean }) => n.isActive).length).toBe(3);
    expect(numbers.every((n: { willBeRemovedAt: string | null }) => n.willBeRemovedAt === null)).toBe(true);
    // A refund ends the service the same way.
    expect((await send('REFUND')).body.data.subscription.subscriptionStatus).toBe('refunding');
    expect((await client.get('/api/caddy/inactivity')).body.data.length).toBe(3);
    expect((await account(accountId)).plan).toBe('starter');
    // Google: paused keeps the numbers until it resumes (45 days in the sandbox), more than the 30 days.
    const g = await signUp();
    await g.client.post('/api/caddy/stores/sandbox/subscribe', { store: 'google', plan: 'premium_monthly' });
    await addNumbers(g.client, 1);
    const paused = await g.client.post('/api/caddy/stores/sandbox/notifications', { store: 'google', type: 'SUBSCRIPTION_PAUSED' });
    expect(paused.body.data.subscription.subscriptionStatus).toBe('expired');
    const [removal] = (await g.client.get('/api/caddy/inactivity')).body.data;
    expect(Date.parse(removal.willBeRemovedAt)).toBeGreaterThan(Date.now() + 44 * DAY);
  });
});
