/**
 * Billing figures against hand computations (issue 23 item 8; docs/billing.md "Usage", "Add-ons", "Upcoming invoice",
 * "Number price"): the price of buying numbers beyond the plan's allowance, the extra-numbers overage (so far and
 * projected to the period end), add-ons in use shown as billed and kept on while used, the upcoming invoice during the
 * trial and after it (equal, line for line, to the renewal invoice then created), and a plan change read back at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';
import { runBillingTick } from './billing.invoices.js';
import { billingRepository } from './billing.repository.js';

let s: TestServer;
const DAY = 86_400_000;

beforeAll(async () => {
  s = await startTestServer();
}, 180_000);

afterAll(async () => {
  await s?.close();
});

const sub = (a: Account) => `/api/company/${a.companyId}`;

describe('the price of buying numbers (buy dialog)', () => {
  it('splits a purchase into numbers included in the plan and extra ones at the plan price', async () => {
    const a = await createAccount(s);
    // Never opened billing: the trial's plan (Starter, 3 included, $3.00 per extra number a month), nothing created.
    let r = await a.client.get(`${sub(a)}/billing/number-price?count=5`);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ planName: expect.stringMatching(/Starter/), included: 3, held: 0, count: 5, includedCount: 3, extraCount: 2 });
    expect(r.body.data).toMatchObject({ unitCents: 300, monthlyCents: 600, trial: true }); // 2 × $3.00
    await buyTestNumber(a, '212', 0);
    await buyTestNumber(a, '212', 1);
    await buyTestNumber(a, '212', 2);
    r = await a.client.get(`${sub(a)}/billing/number-price?count=1`);
    expect(r.body.data).toMatchObject({ held: 3, includedCount: 0, extraCount: 1, monthlyCents: 300 });
    expect((await a.client.get(`${sub(a)}/billing/number-price?count=0`)).status).toBe(422);
  });
});

describe('usage, add-ons and the upcoming invoice', () => {
  it('match the hand computation, and the renewal invoice equals the upcoming one', async () => {
    const a = await createAccount(s);
    expect((await a.client.get(`${sub(a)}/subscription`)).status).toBe(200);
    const numbers = [];
    for (let i = 0; i < 5; i++) numbers.push(await buyTestNumber(a, '312', i));
    // Recording on 1 number, transcription on 2: both add-ons are in use.
    expect((await a.client.put(`/api/numbers/${numbers[0]!.id}`, { record: true, call_transcription_enabled: true })).status).toBe(200);
    expect((await a.client.put(`/api/numbers/${numbers[1]!.id}`, { call_transcription_enabled: true })).status).toBe(200);

    // Trial (14 days of Starter): the upcoming invoice is the first period's plan and the add-ons in use; no overage.
    let up = (await a.client.get(`${sub(a)}/invoices/upcoming`)).body.data;
    const trial = (await a.client.get(`${sub(a)}/subscription`)).body.data;
    expect(up.date).toBe(trial.currentPeriodEnd);
    expect(up.lines.map((l: any) => [l.kind, l.amountCents])).toEqual([
      ['plan', 2900],
      ['feature_call_recording', 1000],
      ['feature_transcription', 1500],
    ]);
    expect(up.totalCents).toBe(2900 + 1000 + 1500);
    expect(trial.features).toEqual(['call_recording', 'transcription']);
    expect(trial.featuresInUse).toEqual([
      { feature: 'call_recording', reason: 'Recording is on for 1 number.' },
      { feature: 'transcription', reason: 'Transcription is on for 2 numbers.' },
    ]);
    // An add-on in use cannot be switched off here; one not in use can be switched on and off.
    const off = await a.client.post(`${sub(a)}/subscription/features`, { feature: 'call_recording', enabled: false });
    expect(off.status).toBe(422);
    expect(off.body.errors.feature[0]).toBe('Call recording is in use: Recording is on for 1 number. Turn it off there first.');
    expect((await a.client.post(`${sub(a)}/subscription/features`, { feature: 'dynamic_number_insertion', enabled: true })).body.data.features).toEqual([
      'call_recording',
      'dynamic_number_insertion',
      'transcription',
    ]);
    expect((await a.client.post(`${sub(a)}/subscription/features`, { feature: 'dynamic_number_insertion', enabled: false })).status).toBe(200);

    // Active on Starter for a 30-day period starting at today's UTC midnight: 5 numbers held today, 3 included.
    const today = new Date();
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
    const end = new Date(start.getTime() + 30 * DAY);
    await billingRepository.updateSubscription(s.ctx.db, a.companyId, { status: 'active', current_period_start: start, current_period_end: end });
    const u = (await a.client.get(`${sub(a)}/usage`)).body.data;
    // 2 number-days over of 30 → ceil(2 / 30) = 1 extra number so far; kept 29 more days: ceil((2 + 2 × 29) / 30) = 2.
    expect(u.numbers).toEqual({ current: 5, included: 3, numberDays: 5, numberDaysOver: 2, periodDays: 30, unitCents: 300, projectedExtra: 2 });
    expect(u.overage).toEqual([
      {
        kind: 'overage_numbers',
        description: 'Extra numbers over 3 included (2 number-days over ÷ 30 days, rounded up)',
        quantity: 1,
        unitCents: 300,
        amountCents: 300,
      },
    ]);
    expect(u.overageCents).toBe(300);

    up = (await a.client.get(`${sub(a)}/invoices/upcoming`)).body.data;
    expect(up.date).toBe(end.toISOString());
    expect(up.lines.map((l: any) => [l.kind, l.quantity, l.unitCents, l.amountCents])).toEqual([
      ['overage_numbers', 1, 300, 300],
      ['plan', 1, 2900, 2900],
      ['feature_call_recording', 1, 1000, 1000],
      ['feature_transcription', 1, 1500, 1500],
    ]);
    expect(up.totalCents).toBe(300 + 2900 + 1000 + 1500);
    expect(up.amountDueCents).toBe(5700);

    // The period ends: the renewal invoice is the upcoming one, line for line.
    await runBillingTick(s.ctx, new Date(end.getTime() + 60_000));
    const [renewal] = (await a.client.get(`${sub(a)}/invoices`)).body.data;
    expect(renewal.kind).toBe('renewal');
    expect(renewal.lines.map((l: any) => [l.kind, l.description, l.amountCents])).toEqual(up.lines.map((l: any) => [l.kind, l.description, l.amountCents]));
    expect(renewal.totalCents).toBe(up.totalCents);
  });

  it('answers a plan change at once: usage allowances, offers without the current plan; no upcoming invoice once canceled', async () => {
    const a = await createAccount(s);
    expect((await a.client.get(`${sub(a)}/subscription`)).status).toBe(200);
    const m = await a.client.post(`${sub(a)}/subscription/migrate`, { plan_id: 'premium_monthly' });
    expect(m.status).toBe(200);
    expect(m.body.data.plan.id).toBe('premium_monthly');
    const u = (await a.client.get(`${sub(a)}/usage`)).body.data;
    expect(u.numbers.included).toBe(10);
    expect(u.minutes.included).toBe(1000);
    expect(u.messages.included).toBe(2000);
    const offers = (await a.client.get(`${sub(a)}/subscription/yearly-offers`)).body.data.map((o: any) => o.plan.id);
    expect(offers).toContain('premium_yearly');
    expect(offers).not.toContain('premium_monthly');
    expect((await a.client.get(`${sub(a)}/invoices/upcoming`)).body.data.lines[0]).toMatchObject({ kind: 'plan', amountCents: 7900 });
    await billingRepository.updateSubscription(s.ctx.db, a.companyId, { status: 'canceled' });
    expect((await a.client.get(`${sub(a)}/invoices/upcoming`)).body).toEqual({ data: null });
  });
});
