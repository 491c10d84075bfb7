/**
 * Billing through the real server (sandbox gateway), the paths billing.test.ts leaves out (docs/billing.md): a gateway
 * payment whose application fails is rolled back with its receipt and applied once on redelivery; a migrate between
 * monthly and yearly plans equals a hand computation; a migrate refuses (422) when the amount is not the previewed one;
 * the subscription update (a plan change at period end) through renewal; the "saved but still past due" message; the
 * canceled subscription's warning.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { webhookReceiptsRepository } from '../../platform/http/webhook-receipts.repository.js';
import { SANDBOX_BASE, SANDBOX_PUBLISHABLE_KEY, SANDBOX_WEBHOOK_SECRET, signSandboxWebhook } from '../../platform/payments/index.js';
import { creditAccount, runBillingTick } from './billing.invoices.js';
import { billingRepository } from './billing.repository.js';

let s: TestServer;
const DAY = 86_400_000;

beforeAll(async () => {
  s = await startTestServer();
}, 180_000);

afterAll(async () => {
  await s?.close();
});

/** Tokenizes a card with the sandbox gateway, as the browser does. */
async function tokenize(number: string): Promise<string> {
  const res = await fetch(`${s.url}${SANDBOX_BASE}/payment_methods`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_PUBLISHABLE_KEY}` },
    body: JSON.stringify({ number, cvc: '123', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2 }),
  });
  const body = (await res.json()) as { id: string };
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.id;
}

/** Makes the company's subscription active on `planId` for the period [start, end). */
async function activate(a: Account, planId: string, start: Date, end: Date): Promise<void> {
  expect((await a.client.get(`/api/company/${a.companyId}/subscription`)).status).toBe(200);
  await billingRepository.updateSubscription(s.ctx.db, a.companyId, {
    plan_id: planId,
    status: 'active',
    current_period_start: start,
    current_period_end: end,
  });
}

/** An account whose period just ended without a card: the renewal invoice is open and the subscription past due. */
async function pastDueAccount(): Promise<{ acc: Account; invoice: any }> {
  const acc = await createAccount(s);
  const t0 = new Date(Date.now() - 60_000);
  await activate(acc, 'starter_monthly', new Date(t0.getTime() - 30 * DAY), t0);
  await runBillingTick(s.ctx, new Date());
  const [invoice] = (await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data;
  expect(invoice).toMatchObject({ status: 'open', totalCents: 2900 });
  expect((await acc.client.get(`/api/company/${acc.companyId}/subscription`)).body.data.status).toBe('past_due');
  return { acc, invoice };
}

/** A year after `d` (UTC; the day of month kept, as addInterval does outside Feb 29). */
function plusYear(d: Date): Date {
  const e = new Date(d);
  e.setUTCFullYear(e.getUTCFullYear() + 1);
  return e;
}

describe('gateway webhook: a failure while applying a payment', () => {
  it('leaves everything as it was (no receipt), and the redelivery applies the payment exactly once', async () => {
    const { acc, invoice } = await pastDueAccount();
    const eventId = 'evt_test_apply_fails_once';
    const body = JSON.stringify({
      id: eventId,
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_ext_retry', metadata: { invoice_id: String(invoice.id) } } },
    });
    const deliver = () =>
      fetch(`${s.url}/webhooks/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signSandboxWebhook(body, SANDBOX_WEBHOOK_SECRET) },
        body,
      });

    // The failure comes after the invoice was marked paid (settling the subscription): all of it must roll back.
    const injected = vi.spyOn(billingRepository, 'updateSubscription').mockRejectedValueOnce(new Error('injected failure'));
    const first = await deliver();
    expect(first.status).toBe(500);
    expect(injected).toHaveBeenCalledTimes(1);
    injected.mockRestore();
    expect(await billingRepository.invoice(s.ctx.db, invoice.id)).toMatchObject({ status: 'open', paid_at: null, amount_due_cents: 2900 });
    expect((await billingRepository.subscription(s.ctx.db, acc.companyId))!.status).toBe('past_due');
    expect(await webhookReceiptsRepository.find(s.ctx.db, `stripe:${eventId}`)).toBeUndefined();

    // Stripe redelivers: applied now, in the answer's transaction (no waiting).
    const second = await deliver();
    expect(second.status).toBe(200);
    const paid = (await billingRepository.invoice(s.ctx.db, invoice.id))!;
    expect(paid).toMatchObject({ status: 'paid', amount_due_cents: 0, gateway_payment_id: 'pi_ext_retry' });
    expect((await billingRepository.subscription(s.ctx.db, acc.companyId))!.status).toBe('active');

    // A third delivery is a duplicate: the stored answer, nothing written, and no charge left for dunning.
    const writes = vi.spyOn(billingRepository, 'updateInvoice');
    const third = await deliver();
    expect(third.status).toBe(200);
    expect(await third.json()).toEqual({ received: true });
    expect(writes).not.toHaveBeenCalled();
    writes.mockRestore();
    expect((await billingRepository.invoice(s.ctx.db, invoice.id))!.paid_at).toEqual(paid.paid_at);
    expect(await billingRepository.invoicesToRetry(s.ctx.db, new Date(Date.now() + 30 * DAY), 500)).not.toContain(invoice.id);
  });
});

describe('past-due messages', () => {
  it('a new card that cannot pay the balance: "saved, but your account is still past due … Customer Success"', async () => {
    const { acc } = await pastDueAccount();
    // 4000000000000341: saved, but every charge is declined.
    const r = await acc.client.post(`/api/company/${acc.companyId}/billing`, { chargify_token: await tokenize('4000000000000341') });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('Your payment method has been saved, but your account is still past due. Please contact Customer Success.');
    expect(r.body.data).toMatchObject({
      card: { last4: '0341' },
      pastDue: true,
      balanceCents: 2900,
      pastDueMessage: 'Your account has an outstanding balance of $29.00. Please update your payment information to reactivate your account.',
    });
  });

  it('a canceled subscription answers the spec warning to every subscription change', async () => {
    const acc = await createAccount(s);
    const t0 = new Date(Date.now() - 60_000);
    await activate(acc, 'starter_monthly', new Date(t0.getTime() - 30 * DAY), new Date(t0.getTime() + DAY));
    const base = `/api/company/${acc.companyId}/subscription`;
    expect((await acc.client.post(`${base}/cancel`, {})).body.data.cancelAtPeriodEnd).toBe(true);
    await runBillingTick(s.ctx, new Date(t0.getTime() + 2 * DAY));
    expect((await acc.client.get(base)).body.data.status).toBe('canceled');
    const warning = 'You have accounts without a subscription. Please contact support!';
    for (const [method, path, body] of [
      ['post', '/migrate/preview', { plan_id: 'premium_monthly' }],
      ['post', '/migrate', { plan_id: 'premium_monthly' }],
      ['put', '', { plan_id: 'premium_monthly' }],
      ['post', '/cancel', {}],
      ['post', '/features', { feature: 'call_recording', enabled: true }],
    ] as const) {
      const r = await acc.client[method](`${base}${path}`, body);
      expect(r.status, `${method} ${path}`).toBe(422);
      expect(r.body).toEqual({ message: warning, errors: { subscription: [warning] } });
    }
    expect((await acc.client.get(`${base}/yearly-offers`)).body.data).toEqual([]);
  });
});

describe('migrate between monthly and yearly', () => {
  it('monthly → yearly and back: proration by seconds equals the hand computation, period restarted, credit kept', async () => {
    const acc = await createAccount(s);
    const now = Date.now();
    const start = new Date(now - 10 * DAY);
    const end = new Date(now + 20 * DAY);
    await activate(acc, 'starter_monthly', start, end);
    await acc.client.post(`/api/company/${acc.companyId}/billing`, { chargify_token: await tokenize('4242424242424242') });
    const base = `/api/company/${acc.companyId}/subscription`;

    // Starter ($29.00 a month) → Premium yearly ($790.00 a year), 20 of 30 days left.
    const up = (await acc.client.post(`${base}/migrate/preview`, { plan_id: 'premium_yearly' })).body.data;
    const at = new Date(up.prorationDate);
    const period = 30 * 86_400;
    const remaining = Math.round((end.getTime() - at.getTime()) / 1000);
    expect(up.periodSeconds).toBe(period);
    expect(up.remainingSeconds).toBe(remaining);
    // By hand: credit round(2900 × remaining / period) = round(1933.3…) = 1933 (20 days less the seconds since start);
    // a new yearly period at the full price 79000. Total 79000 − 1933 = 77067, all charged now (no credit).
    const credit = Math.round((2900 * remaining) / period);
    expect(credit).toBe(1933);
    expect(up.lines.map((l: any) => [l.kind, l.amountCents])).toEqual([
      ['proration_credit', -1933],
      ['plan', 79000],
    ]);
    expect(up).toMatchObject({ totalCents: 77067, chargeNowCents: 77067, creditCents: 0, newPeriodEnd: plusYear(at).toISOString() });

    const applied = await acc.client.post(`${base}/migrate`, { plan_id: 'premium_yearly', proration_date: up.prorationDate, expected_amount_cents: 77067 });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.invoice).toMatchObject({ kind: 'proration', status: 'paid', totalCents: 77067, periodEnd: plusYear(at).toISOString() });
    expect(applied.body.data).toMatchObject({
      plan: { id: 'premium_yearly' },
      currentPeriodStart: at.toISOString(),
      currentPeriodEnd: plusYear(at).toISOString(),
    });

    // Premium yearly → Starter monthly straight away: almost the whole year is unused.
    const down = (await acc.client.post(`${base}/migrate/preview`, { plan_id: 'starter_monthly' })).body.data;
    const at2 = new Date(down.prorationDate);
    const yearSeconds = Math.round((plusYear(at).getTime() - at.getTime()) / 1000);
    const left = Math.round((plusYear(at).getTime() - at2.getTime()) / 1000);
    expect(down).toMatchObject({ periodSeconds: yearSeconds, remainingSeconds: left });
    const credit2 = Math.round((79000 * left) / yearSeconds);
    expect(credit2).toBe(79000); // seconds since the upgrade are worth less than half a cent
    expect(down.lines.map((l: any) => l.amountCents)).toEqual([-79000, 2900]);
    expect(down).toMatchObject({ totalCents: -76100, chargeNowCents: 0, creditCents: 76100 });
    const back = await acc.client.post(`${base}/migrate`, { plan_id: 'starter_monthly', proration_date: down.prorationDate, expected_amount_cents: 0 });
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body.invoice).toMatchObject({ status: 'paid', totalCents: -76100, amountDueCents: 0 });
    expect(back.body.data).toMatchObject({ plan: { id: 'starter_monthly' }, currentPeriodStart: at2.toISOString(), creditCents: 76100 });
    const monthEnd = new Date(at2);
    monthEnd.setUTCMonth(monthEnd.getUTCMonth() + 1);
    if (monthEnd.getUTCDate() === at2.getUTCDate()) expect(back.body.data.currentPeriodEnd).toBe(monthEnd.toISOString());
  });
});

describe('migrate: the amount charged is the previewed one', () => {
  it('refuses with 422 when the amount changed since the preview, and changes nothing', async () => {
    const acc = await createAccount(s);
    const now = Date.now();
    await activate(acc, 'starter_monthly', new Date(now - 10 * DAY), new Date(now + 20 * DAY));
    await acc.client.post(`/api/company/${acc.companyId}/billing`, { chargify_token: await tokenize('4242424242424242') });
    const base = `/api/company/${acc.companyId}/subscription`;
    const p = (await acc.client.post(`${base}/migrate/preview`, { plan_id: 'premium_monthly' })).body.data;
    expect(p.chargeNowCents).toBe(3334);

    // Account credit arrives between the preview and the confirmation: $10.00 less is due.
    await creditAccount(s.ctx, acc.companyId, 1000);
    const drift = await acc.client.post(`${base}/migrate`, { plan_id: 'premium_monthly', proration_date: p.prorationDate, expected_amount_cents: 3334 });
    expect(drift.status).toBe(422);
    const msg = 'The amount of this plan change is now $23.34 instead of the $33.34 previewed. Please review the new preview before confirming.';
    expect(drift.body).toEqual({ message: msg, errors: { expected_amount_cents: [msg] } });
    expect((await acc.client.get(base)).body.data).toMatchObject({ plan: { id: 'starter_monthly' }, creditCents: 1000 });
    expect((await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data).toEqual([]);

    // An old or future proration date.
    const old = new Date(Date.now() - 2 * 3_600_000).toISOString();
    const expired = await acc.client.post(`${base}/migrate`, { plan_id: 'premium_monthly', proration_date: old, expected_amount_cents: 2334 });
    expect(expired.status).toBe(422);
    expect(expired.body.message).toBe('This preview has expired. Please review the plan change again.');
    const future = await acc.client.post(`${base}/migrate`, { plan_id: 'premium_monthly', proration_date: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.status).toBe(422);
    expect(future.body.errors).toHaveProperty('proration_date');
    expect((await acc.client.post(`${base}/migrate`, { plan_id: 'premium_monthly', expected_amount_cents: -1 })).status).toBe(422);
    expect((await acc.client.post(`${base}/migrate`, { plan_id: 'premium_monthly', proration_date: 'yesterday' })).status).toBe(422);

    // The new preview, confirmed with what it shows: applied, charged exactly that.
    const p2 = (await acc.client.post(`${base}/migrate/preview`, { plan_id: 'premium_monthly' })).body.data;
    expect(p2.chargeNowCents).toBe(2334);
    const ok = await acc.client.post(`${base}/migrate`, { plan_id: 'premium_monthly', proration_date: p2.prorationDate, expected_amount_cents: 2334 });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.invoice).toMatchObject({ status: 'paid', totalCents: 2334 });
    expect(ok.body.invoice.lines.map((l: any) => l.amountCents)).toEqual([-1933, 5267, -1000]);
  });

  it('refuses with 422 a preview taken before the period renewed', async () => {
    const acc = await createAccount(s);
    const now = Date.now();
    await activate(acc, 'starter_monthly', new Date(now - 30 * DAY), new Date(now + 60_000));
    const base = `/api/company/${acc.companyId}/subscription`;
    const p = (await acc.client.post(`${base}/migrate/preview`, { plan_id: 'premium_monthly' })).body.data;
    // The period renews (at its end) before the person confirms.
    await billingRepository.updateSubscription(s.ctx.db, acc.companyId, {
      current_period_start: new Date(now + 1000),
      current_period_end: new Date(now + 31 * DAY),
    });
    const r = await acc.client.post(`${base}/migrate`, {
      plan_id: 'premium_monthly',
      proration_date: p.prorationDate,
      expected_amount_cents: p.chargeNowCents,
    });
    expect(r.status).toBe(422);
    expect(r.body.message).toBe('Your subscription changed since the preview. Please review the plan change again.');
  });
});

describe('subscription update: a plan change at the end of the period', () => {
  it('schedules the plan, replaces a pending cancel, renews on it, and is refused for the current plan', async () => {
    const acc = await createAccount(s);
    const admin = await createAccount(s);
    expect((await acc.client.post(`/api/companies/${acc.companyId}/invitations`, { email: admin.email, role: 'administrator' })).status).toBeLessThan(300);
    const t0 = Date.now();
    const end = new Date(t0 + DAY);
    await activate(acc, 'starter_monthly', new Date(t0 - 29 * DAY), end);
    await acc.client.post(`/api/company/${acc.companyId}/billing`, { chargify_token: await tokenize('4242424242424242') });
    const base = `/api/company/${acc.companyId}/subscription`;
    expect((await acc.client.post(`${base}/cancel`, {})).body.data.cancelAtPeriodEnd).toBe(true);

    expect((await admin.client.put(base, { plan_id: 'premium_yearly' })).status).toBe(403);
    expect((await acc.client.put(base, { plan_id: 'starter_monthly' })).body.errors.plan_id).toEqual(['This is already your plan.']);
    expect((await acc.client.put(base, { plan_id: 'gold' })).body.errors.plan_id).toEqual(['The selected plan is invalid.']);
    expect((await acc.client.put(base, {})).status).toBe(422);

    const r = await acc.client.put(base, { plan_id: 'premium_yearly' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body).toMatchObject({
      message: 'Your plan will change at the end of the current billing period.',
      data: { plan: { id: 'starter_monthly' }, pendingPlan: { id: 'premium_yearly' }, cancelAtPeriodEnd: false },
    });
    // Nothing is prorated or charged now.
    expect((await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data).toEqual([]);
    // Revertable like any pending change, then scheduled again.
    expect((await acc.client.post(`${base}/revert-product-change`, {})).body.data.pendingPlan).toBeNull();
    expect((await acc.client.put(base, { plan_id: 'premium_yearly' })).status).toBe(200);

    await runBillingTick(s.ctx, new Date(end.getTime() + 1000));
    const sub = (await acc.client.get(base)).body.data;
    expect(sub).toMatchObject({ plan: { id: 'premium_yearly' }, pendingPlan: null, status: 'active', currentPeriodStart: end.toISOString() });
    expect(sub.currentPeriodEnd).toBe(plusYear(end).toISOString());
    const [inv] = (await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data;
    expect(inv).toMatchObject({ kind: 'renewal', status: 'paid', totalCents: 79000 });
  });
});
