/**
 * Billing through the real server with the sandbox gateway (docs/billing.md): each test card's outcome, card data
 * never stored, proration equal to a hand computation, invoice totals equal to their lines and in the PDF's text,
 * gapless invoice numbers, dunning from a failed charge to past due to parked and back to active once paid, usage
 * equal to the calls, messages and numbers recorded, the gateway webhook (bad signature refused, a duplicate applied
 * once), roles (owner and billing only), another company's data, and 422s.
 */
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, postWebhook, type TestServer } from '../../../test/harness.js';
import { SESSION_COOKIE } from '../../platform/auth/auth.plugin.js';
import { events } from '../../platform/events/index.js';
import { SANDBOX_BASE, SANDBOX_PUBLISHABLE_KEY, SANDBOX_WEBHOOK_SECRET, signSandboxWebhook } from '../../platform/payments/index.js';
import { findCompany } from '../companies/accounts.service.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { runBillingTick } from './billing.invoices.js';
import { prorate } from './billing.pricing.js';
import { billingRepository } from './billing.repository.js';

let s: TestServer;
let owner: Account;
let other: Account;
let billingUser: Account;
let admin: Account;
let plainUser: Account;

const DAY = 86_400_000;

beforeAll(async () => {
  s = await startTestServer();
  owner = await createAccount(s, { companyName: 'Ortiz Auto' });
  other = await createAccount(s);
  billingUser = await createAccount(s);
  admin = await createAccount(s);
  plainUser = await createAccount(s);
  for (const [acc, role] of [
    [billingUser, 'billing'],
    [admin, 'administrator'],
    [plainUser, 'user'],
  ] as const) {
    const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: acc.email, role });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  }
}, 180_000);

afterAll(async () => {
  await s?.close();
});

/** Tokenizes a card with the sandbox gateway, as the browser does. */
async function tokenize(number: string, exp = { exp_month: 12, exp_year: new Date().getUTCFullYear() + 2 }): Promise<string> {
  const res = await fetch(`${s.url}${SANDBOX_BASE}/payment_methods`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_PUBLISHABLE_KEY}` },
    body: JSON.stringify({ number, cvc: '123', ...exp }),
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

/** The text drawn in a PDF: every content stream inflated, the strings of its TJ/Tj operators decoded. */
function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    const bytes = Buffer.from(raw.slice(start, end), 'latin1');
    let content: string;
    try {
      content = zlib.inflateSync(bytes).toString('latin1');
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      content = bytes.toString('latin1');
    }
    for (const op of content.matchAll(/\[(.*?)\]\s*TJ|<([0-9a-fA-F]+)>\s*Tj/g)) {
      const hex = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]+)>/g)].map((h) => h[1]).join('') : op[2]!;
      out.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return out.join('\n');
}

describe('roles and access', () => {
  it('lets the owner and the billing role read and manage billing; administrator and user get 403', async () => {
    for (const a of [owner, billingUser]) {
      const r = await a.client.get(`/api/company/${owner.companyId}/billing`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body.data).toMatchObject({ billing_name: '', card: null, pastDue: false, balanceCents: 0, pastDueMessage: null });
    }
    const saved = await billingUser.client.post(`/api/company/${owner.companyId}/billing`, {
      billing_name: 'Ortiz Auto LLC',
      billing_city: 'Austin',
      billing_country: 'us',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ billing_name: 'Ortiz Auto LLC', billing_city: 'Austin', billing_country: 'US' });
    for (const a of [admin, plainUser, other]) {
      expect((await a.client.get(`/api/company/${owner.companyId}/billing`)).status).toBe(403);
      expect((await a.client.post(`/api/company/${owner.companyId}/billing`, { billing_name: 'x' })).status).toBe(403);
      expect((await a.client.get(`/api/company/${owner.companyId}/invoices`)).status).toBe(403);
      expect((await a.client.get(`/api/company/${owner.companyId}/subscription`)).status).toBe(403);
      expect((await a.client.post(`/api/company/${owner.companyId}/subscription/migrate`, { plan_id: 'premium_monthly' })).status).toBe(403);
    }
  });

  it('answers 422 on bad input, and refuses card numbers on the billing route', async () => {
    const a = owner.client;
    const base = `/api/company/${owner.companyId}`;
    const cc = await a.post(`${base}/billing`, { cc_number: '4242424242424242', cc_exp: '12/30', cc_cvc: '123' });
    expect(cc.status).toBe(422);
    expect(Object.keys(cc.body.errors)).toEqual(expect.arrayContaining(['cc_number', 'cc_exp', 'cc_cvc']));
    expect((await a.post(`${base}/billing`, { billing_country: 'USA' })).status).toBe(422);
    expect((await a.post(`${base}/billing`, { chargify_token: 'pm_sandbox_forged.abc' })).status).toBe(422);
    expect((await a.post(`${base}/subscription/migrate/preview`, { plan_id: 'gold' })).body.errors).toHaveProperty('plan_id');
    expect((await a.post(`${base}/subscription/migrate/preview`, { plan_id: 'starter_monthly' })).status).toBe(422);
    expect((await a.put(`${base}/subscription/customer`, { email: 'not-mail', ccEmails: [], receivesInvoiceEmails: true })).body.errors).toHaveProperty(
      'email',
    );
    expect((await a.post(`${base}/subscription/features`, { feature: 'teleport', enabled: true })).status).toBe(422);
    expect((await a.post(`${base}/subscription/clear-pending-cancel`, {})).status).toBe(422);
    expect((await a.post(`${base}/billing/retry`, {})).status).toBe(422);
    expect((await a.get('/api/company/abc/billing')).status).toBe(422);
  });

  it('gives the browser what it needs to tokenize a card', async () => {
    const r = await owner.client.get('/api/chargify/security-token');
    expect(r.body).toEqual({ gateway: 'sandbox', publishableKey: SANDBOX_PUBLISHABLE_KEY, tokenizeUrl: `${SANDBOX_BASE}/payment_methods` });
  });
});

describe('cards (sandbox test numbers)', () => {
  it('refuses a declined card (4000000000000002) with the card-processing message and stores nothing', async () => {
    const r = await owner.client.post(`/api/company/${owner.companyId}/billing`, { chargify_token: await tokenize('4000000000000002') });
    expect(r.status).toBe(422);
    expect(r.body.errors.chargify_token).toEqual(['There was an issue processing your card. Please contact your card issuer, then try again.']);
    expect((await owner.client.get(`/api/company/${owner.companyId}/billing`)).body.data.card).toBeNull();
  });

  it('asks for authentication (4000002500003155), then saves the card once authenticated', async () => {
    const r = await owner.client.post(`/api/company/${owner.companyId}/billing`, { chargify_token: await tokenize('4000002500003155') });
    expect(r.status).toBe(200);
    expect(r.body.data.card).toBeNull();
    const { setupIntentId } = r.body.requiresAction;
    // Not authenticated yet: refused.
    expect((await owner.client.post(`/api/company/${owner.companyId}/billing`, { setup_intent: setupIntentId })).status).toBe(422);
    const auth = await fetch(`${s.url}${SANDBOX_BASE}/setup_intents/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ setup_intent: setupIntentId }),
    });
    const authBody = (await auth.json()) as { id: string };
    expect(auth.status, JSON.stringify(authBody)).toBe(200);
    const { id } = authBody;
    const done = await owner.client.post(`/api/company/${owner.companyId}/billing`, { setup_intent: id });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.data.card).toMatchObject({ brand: 'visa', last4: '3155' });
  });

  it('saves a good card (4242424242424242): brand, last four and expiry only', async () => {
    const year = new Date().getUTCFullYear() + 2;
    const r = await owner.client.post(`/api/company/${owner.companyId}/billing`, { chargify_token: await tokenize('4242 4242 4242 4242') });
    expect(r.status).toBe(200);
    expect(r.body.message).toBe('Your payment method has been saved. It will not be charged until the next billing cycle.');
    expect(r.body.data.card).toEqual({ brand: 'visa', last4: '4242', expMonth: 12, expYear: year });
    const row = await billingRepository.account(s.ctx.db, owner.companyId);
    expect(JSON.stringify(row)).not.toContain('4242424242424242');
    expect(row).toMatchObject({ card_last4: '4242', card_brand: 'visa' });
  });

  it('refuses a number failing the Luhn check at tokenization', async () => {
    const res = await fetch(`${s.url}${SANDBOX_BASE}/payment_methods`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_PUBLISHABLE_KEY}` },
      body: JSON.stringify({ number: '4242424242424241', exp_month: 1, exp_year: 2099, cvc: '1' }),
    });
    expect(res.status).toBe(422);
  });
});

describe('plan change with proration', () => {
  it('matches the hand computation (by seconds) and the pure function', () => {
    const plans = { from: { price_cents: 2900, name: 'Starter', interval: 'month' }, to: { price_cents: 7900, name: 'Premium', interval: 'month' } } as const;
    // 30-day period, 20 days left: credit 2900 × 20/30 = 1933.33 → 1933, charge 7900 × 20/30 = 5266.67 → 5267.
    const p = prorate(
      plans.from as never,
      plans.to as never,
      new Date('2026-01-01T00:00:00Z'),
      new Date('2026-01-31T00:00:00Z'),
      new Date('2026-01-11T00:00:00Z'),
    );
    expect(p.lines.map((l) => l.amount_cents)).toEqual([-1933, 5267]);
    expect(p.totalCents).toBe(3334);
    expect(p.remainingSeconds).toBe(20 * 86_400);
  });

  it('previews and applies a migrate: invoice of the proration, charged, totals equal lines, PDF has them', async () => {
    const now = Date.now();
    await activate(owner, 'starter_monthly', new Date(now - 10 * DAY), new Date(now + 20 * DAY));
    const base = `/api/company/${owner.companyId}`;
    const preview = await owner.client.post(`${base}/subscription/migrate/preview`, { plan_id: 'premium_monthly' });
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data.periodSeconds).toBe(30 * 86_400);
    expect(preview.body.data.lines.map((l: any) => l.amountCents)).toEqual([-1933, 5267]);
    expect(preview.body.data).toMatchObject({ totalCents: 3334, chargeNowCents: 3334, creditCents: 0 });

    const r = await owner.client.post(`${base}/subscription/migrate`, { plan_id: 'premium_monthly' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.plan.id).toBe('premium_monthly');
    const inv = r.body.invoice;
    expect(inv).toMatchObject({ kind: 'proration', status: 'paid', totalCents: 3334, amountDueCents: 0 });
    expect(inv.lines.reduce((t: number, l: any) => t + l.amountCents, 0)).toBe(inv.totalCents);

    const list = await owner.client.get(`${base}/invoices`);
    expect(list.body.data[0].id).toBe(inv.id);
    // Signed out: 401.
    expect((await fetch(s.url + inv.pdfUrl)).status).toBe(401);
    const res = await fetch(s.url + inv.pdfUrl, { headers: { cookie: `${SESSION_COOKIE}=${owner.client.cookie(SESSION_COOKIE)}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="invoice-${inv.number}.pdf"`);
    const text = pdfText(Buffer.from(await res.arrayBuffer()));
    expect(text).toContain(`Invoice ${inv.number}`);
    expect(text).toContain('Unused time on Starter | 1 x -$19.33 | -$19.33');
    expect(text).toContain('Remaining time on Premium | 1 x $52.67 | $52.67');
    expect(text).toContain('Total: $33.34');
    expect(text).toContain('Billed to: Ortiz Auto LLC');

    // Another company cannot read it: 403 on the owner's path, 404 through its own.
    expect((await other.client.get(inv.pdfUrl)).status).toBe(403);
    expect((await other.client.get(`/api/company/${other.companyId}/invoices/${inv.id}/pdf`)).status).toBe(404);
    // The invoice was mailed to the customer.
    const mails = await s.ctx.mailer.outbox(20, owner.email);
    expect(mails.some((m) => m.subject === `Invoice ${inv.number}: $33.34`)).toBe(true);
  });

  it('cancels with a downsell, reverts the change, cancels, clears the pending cancel', async () => {
    const base = `/api/company/${owner.companyId}/subscription`;
    expect((await owner.client.post(`${base}/cancel`, { downsell_plan_id: 'deluxe_monthly' })).status).toBe(422);
    const down = await owner.client.post(`${base}/cancel`, { downsell_plan_id: 'starter_monthly' });
    expect(down.body.data).toMatchObject({ cancelAtPeriodEnd: false, pendingPlan: { id: 'starter_monthly' } });
    expect((await owner.client.post(`${base}/revert-product-change`, {})).body.data.pendingPlan).toBeNull();
    expect((await owner.client.post(`${base}/cancel`, {})).body.data.cancelAtPeriodEnd).toBe(true);
    const cleared = await owner.client.post(`${base}/clear-pending-cancel`, {});
    expect(cleared.body).toMatchObject({ message: 'Your subscription will continue.', data: { cancelAtPeriodEnd: false } });
    const feat = await owner.client.post(`${base}/features`, { feature: 'call_recording', enabled: true });
    expect(feat.body).toMatchObject({ message: 'Feature enabled successfully', data: { features: ['call_recording'] } });
    const cust = await owner.client.put(`${base}/customer`, { email: 'Billing@Ortiz.test', ccEmails: ['cfo@ortiz.test'], receivesInvoiceEmails: false });
    expect(cust.body.data.customer).toEqual({ email: 'billing@ortiz.test', ccEmails: ['cfo@ortiz.test'], receivesInvoiceEmails: false });
    const offers = await owner.client.get(`${base}/yearly-offers`);
    expect(offers.body.data.map((o: any) => [o.plan.id, o.savingsCents])).toEqual([
      ['premium_yearly', 7900 * 12 - 79000],
      ['deluxe_yearly', 19900 * 12 - 199000],
    ]);
  });

  it('gives the plan number limit to the numbers module (starter: 3 included × 10)', async () => {
    const acc = await createAccount(s);
    // Without a subscription: the default limit.
    expect((await acc.client.get(`/api/companies/${acc.companyId}/number-limit`)).body).toEqual({ limit: 25, used: 0 });
    expect((await acc.client.get(`/api/company/${acc.companyId}/subscription`)).body.data.plan.id).toBe('starter_monthly');
    expect((await acc.client.get(`/api/companies/${acc.companyId}/number-limit`)).body).toEqual({ limit: 30, used: 0 });
    const deluxe = await acc.client.post(`/api/company/${acc.companyId}/subscription/migrate`, { plan_id: 'deluxe_monthly' });
    expect(deluxe.status).toBe(200);
    expect(deluxe.body.invoice).toBeNull(); // a trial only switches the plan
    expect((await acc.client.get(`/api/companies/${acc.companyId}/number-limit`)).body).toEqual({ limit: 300, used: 0 });
  });
});

describe('dunning', () => {
  it('failure → past due with retries on days 1, 3, 5, 7 → parked → paid with a new card → active', async () => {
    const acc = await createAccount(s, { companyName: 'Late Payer' });
    const t0 = new Date(Date.now() - 60_000);
    await activate(acc, 'starter_monthly', new Date(t0.getTime() - 30 * DAY), t0);
    await acc.client.post(`/api/company/${acc.companyId}/billing`, { chargify_token: await tokenize('4000000000000341') });
    const now = new Date();
    await runBillingTick(s.ctx, now);
    let [inv] = (await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data;
    expect(inv).toMatchObject({ kind: 'renewal', status: 'open', totalCents: 2900, attemptCount: 1 });
    expect(inv.lines.reduce((t: number, l: any) => t + l.amountCents, 0)).toBe(2900);
    expect(new Date(inv.nextAttemptAt).getTime()).toBe(now.getTime() + 1 * DAY);
    const billing = await acc.client.get(`/api/company/${acc.companyId}/billing`);
    expect(billing.body.data).toMatchObject({
      pastDue: true,
      balanceCents: 2900,
      pastDueMessage: 'Your account has an outstanding balance of $29.00. Please update your payment information to reactivate your account.',
    });
    expect((await acc.client.get(`/api/company/${acc.companyId}/subscription`)).body.data.status).toBe('past_due');
    expect((await s.ctx.mailer.outbox(20, acc.email)).some((m) => m.subject === `Payment failed for invoice ${inv.number}`)).toBe(true);

    // The manual retry fails too (card 0341) and keeps the schedule.
    const retry = await acc.client.post(`/api/company/${acc.companyId}/billing/retry`, {});
    expect(retry.status).toBe(422);
    expect(retry.body.message).toMatch(/^Your account has an outstanding balance of \$29\.00/);

    for (const [day, next] of [
      [1, 3],
      [3, 5],
      [5, 7],
    ] as const) {
      await runBillingTick(s.ctx, new Date(now.getTime() + day * DAY + 1000));
      [inv] = (await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data;
      expect(new Date(inv.nextAttemptAt).getTime()).toBe(now.getTime() + next * DAY);
      expect((await findCompany(s.ctx, acc.companyId))!.account_status).toBe(0);
    }
    await runBillingTick(s.ctx, new Date(now.getTime() + 7 * DAY + 1000));
    [inv] = (await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data;
    expect(inv).toMatchObject({ status: 'open', nextAttemptAt: null, attemptCount: 6 });
    expect((await findCompany(s.ctx, acc.companyId))!.account_status).toBe(1);
    expect((await acc.client.get(`/api/company/${acc.companyId}/subscription`)).body.data.parked).toBe(true);
    expect((await s.ctx.mailer.outbox(50, acc.email)).some((m) => m.subject === 'Your account has been parked for non-payment')).toBe(true);

    const paid = await acc.client.post(`/api/company/${acc.companyId}/billing`, { chargify_token: await tokenize('4242424242424242') });
    expect(paid.body.message).toBe('Your payment was successful. Thank you!');
    expect(paid.body.data).toMatchObject({ pastDue: false, balanceCents: 0 });
    expect((await findCompany(s.ctx, acc.companyId))!.account_status).toBe(0);
    const sub = (await acc.client.get(`/api/company/${acc.companyId}/subscription`)).body.data;
    expect(sub).toMatchObject({ status: 'active', parked: false });
    // Parking and reactivation are in the audit log under the billing job.
    const log = await acc.client.get(`/api/audit-log?company_id=${acc.companyId}&entity_type=companies`);
    const jobEntries = (log.body.data as Array<{ action: string; actor_name: string }>).filter((e) => e.actor_name === 'Job billing');
    expect(jobEntries.map((e) => e.action).sort()).toEqual(['park', 'reactivate']);
  });
});

describe('gateway webhook', () => {
  it('refuses a bad signature and applies a signed event once', async () => {
    const acc = await createAccount(s);
    const t0 = new Date(Date.now() - 60_000);
    await activate(acc, 'starter_monthly', new Date(t0.getTime() - 30 * DAY), t0);
    await runBillingTick(s.ctx, new Date());
    const [inv] = (await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data;
    expect(inv.status).toBe('open'); // no card: the first charge failed
    const body = JSON.stringify({
      id: 'evt_test_paid_1',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_ext_1', metadata: { invoice_id: String(inv.id) } } },
    });
    const post = (sig: string) =>
      fetch(`${s.url}/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': sig }, body });
    expect((await post(signSandboxWebhook(body, 'whsec_wrong'))).status).toBe(400);
    expect((await post('')).status).toBe(400);
    expect((await post(signSandboxWebhook(body, SANDBOX_WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 3600))).status).toBe(400);
    expect((await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data[0].status).toBe('open');

    const failedBody = JSON.stringify({
      id: 'evt_test_failed_1',
      type: 'payment_intent.payment_failed',
      data: { object: { id: 'pi_ext_0', metadata: { invoice_id: String(inv.id) }, last_payment_error: { message: 'Your card has insufficient funds.' } } },
    });
    const failed = await fetch(`${s.url}/webhooks/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signSandboxWebhook(failedBody, SANDBOX_WEBHOOK_SECRET) },
      body: failedBody,
    });
    expect(failed.status).toBe(200);
    expect((await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data[0]).toMatchObject({
      status: 'open',
      lastError: 'Your card has insufficient funds.',
    });

    const spy = vi.spyOn(billingRepository, 'updateInvoice');
    const first = await post(signSandboxWebhook(body, SANDBOX_WEBHOOK_SECRET));
    expect(first.status).toBe(200);
    const paid = await eventually(async () => {
      const i = (await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data[0];
      return i.status === 'paid' ? i : null;
    });
    const second = await post(signSandboxWebhook(body, SANDBOX_WEBHOOK_SECRET));
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ received: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(spy.mock.calls.filter((c) => c[1] === inv.id).length).toBe(1);
    spy.mockRestore();
    expect((await acc.client.get(`/api/company/${acc.companyId}/invoices`)).body.data[0].paidAt).toBe(paid.paidAt);
    expect((await acc.client.get(`/api/company/${acc.companyId}/subscription`)).body.data.status).toBe('active');
  });
});

describe('usage', () => {
  it('equals the calls, messages and numbers recorded, and announces each change live', async () => {
    const acc = await createAccount(s);
    expect((await acc.client.get(`/api/company/${acc.companyId}/usage`)).body.data.minutes).toEqual({ inbound: 0, outbound: 0, included: 250 });
    const number = await buyTestNumber(acc, '212');
    const send = vi.spyOn(s.ctx.realtime, 'send');
    const r = await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: 'SMbilling0000000000000000000000001',
      From: '+13125558888',
      To: number.number,
      Body: 'Need a quote',
      NumMedia: '0',
    });
    expect(r.status).toBe(200);
    const long = 'x'.repeat(200); // GSM-7, 200 characters: 2 segments of 153
    await postWebhook(s, '/webhooks/twilio/messaging', {
      MessageSid: 'SMbilling0000000000000000000000002',
      From: '+13125558888',
      To: number.number,
      Body: long,
      NumMedia: '0',
    });
    const sent = await acc.client.post('/api/message', { company_id: acc.companyId, number_id: number.id, to: '+13125558888', content: 'Sure, what model?' });
    expect(sent.status).toBe(201);
    const call = { companyId: acc.companyId, numberId: number.id, from: '+13125558888', status: 3, contactId: null, voicemailId: null };
    await events.publish(s.ctx, 'call.changed', { ...call, callId: 900001, direction: 'inbound', durationS: 61, startedAt: new Date() });
    await events.publish(s.ctx, 'call.changed', { ...call, callId: 900001, direction: 'inbound', durationS: 61, startedAt: new Date() });
    await events.publish(s.ctx, 'call.changed', { ...call, callId: 900002, direction: 'outbound', durationS: 30, startedAt: new Date() });
    const u = await eventually(async () => {
      const res = await acc.client.get(`/api/company/${acc.companyId}/usage`);
      return res.body.data.messages.smsSegments === 4 ? res.body.data : null;
    });
    expect(u.minutes).toEqual({ inbound: 2, outbound: 1, included: 250 });
    expect(u.messages).toEqual({ smsSegments: 4, mmsMessages: 0, included: 500 });
    expect(u.numbers).toMatchObject({ current: 1, included: 3 });
    expect(u.daily.reduce((t: number, d: any) => t + d.minutes, 0)).toBe(3);
    // Within the plan's minutes, messages and numbers: no overage of those. The inbound call's caller-name lookup (automatic
    // lookups are on by default) is metered on its own, when it has run by now.
    expect(
      u.overage.filter((o: any) => o.kind !== 'overage_lookups'),
      JSON.stringify(u),
    ).toEqual([]);
    expect(u.overageCents).toBe(u.metered.lookups * 1);
    expect(send.mock.calls.some((c) => c[0] === `company.${acc.companyId}` && c[1] === 'billing usage updated')).toBe(true);
    send.mockRestore();
  });
});

describe('invoice numbers', () => {
  it('are consecutive without gaps', async () => {
    const rows = await s.ctx.db.selectFrom('billing_invoices').select('number').orderBy('id').execute();
    const ns = rows.map((r) => Number(r.number.slice(3)));
    expect(ns.length).toBeGreaterThan(2);
    expect(ns).toEqual(ns.map((_, i) => ns[0]! + i));
  });
});
