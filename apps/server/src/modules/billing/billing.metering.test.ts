/**
 * Metering of faxes, caller-name lookups and transcription minutes (docs/billing.md "Usage"): from the domain events
 * `fax.changed`, `caller-id.looked-up` and `transcript.changed`, each counted once however often it is emitted, shown
 * in the usage and billed as overage at METERED_PRICES_CENTS on the renewal invoice; 10DLC registration fees from
 * `sms-verification.submitted`, billed at cost once per submit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { events } from '../../platform/events/index.js';
import { runBillingTick } from './billing.invoices.js';
import { METERED_PRICES_CENTS } from './billing.pricing.js';
import { billingRepository } from './billing.repository.js';

let s: TestServer;
let acc: Account;
const DAY = 86_400_000;

beforeAll(async () => {
  s = await startTestServer();
  acc = await createAccount(s, { companyName: 'Fax and Lookups Inc' });
}, 180_000);

afterAll(async () => {
  await s?.close();
});

async function usage(a: Account) {
  const r = await a.client.get(`/api/company/${a.companyId}/usage`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

describe('metered services', () => {
  it('counts fax pages, provider lookups and transcription minutes once per event, and bills them as overage', async () => {
    const start = new Date(Date.now() - 10 * DAY);
    const end = new Date(Date.now() + 60_000);
    expect((await usage(acc)).metered).toEqual({ faxPages: 0, lookups: 0, transcriptionMinutes: 0 });
    await billingRepository.updateSubscription(s.ctx.db, acc.companyId, {
      plan_id: 'starter_monthly',
      status: 'active',
      current_period_start: start,
      current_period_end: end,
    });
    const companyId = acc.companyId;
    const fax = { companyId, numberId: 1, direction: 'outbound' as const, remote: '+15125550100' };
    // Sending, then delivered with 3 pages (twice: a repeated event), a failed fax, and a received one of 2 pages.
    await events.publish(s.ctx, 'fax.changed', { ...fax, faxId: 501, status: 'sending', pages: 3 });
    await events.publish(s.ctx, 'fax.changed', { ...fax, faxId: 501, status: 'delivered', pages: 3 });
    await events.publish(s.ctx, 'fax.changed', { ...fax, faxId: 501, status: 'delivered', pages: 3 });
    await events.publish(s.ctx, 'fax.changed', { ...fax, faxId: 502, status: 'failed', pages: 4 });
    await events.publish(s.ctx, 'fax.changed', { ...fax, faxId: 503, direction: 'inbound', status: 'received', pages: 2 });
    // Lookups: the provider twice for one number (once a day), a cache answer (free), the provider for another number.
    await events.publish(s.ctx, 'caller-id.looked-up', { companyId, e164: '+15125550101', source: 'provider', found: true });
    await events.publish(s.ctx, 'caller-id.looked-up', { companyId, e164: '+15125550101', source: 'provider', found: true });
    await events.publish(s.ctx, 'caller-id.looked-up', { companyId, e164: '+15125550101', source: 'cache', found: true });
    await events.publish(s.ctx, 'caller-id.looked-up', { companyId, e164: '+15125550102', source: 'provider', found: false });
    // Transcripts: loading (not billed), complete 125 s → 3 minutes (twice), a failed one, another complete 60 s → 1.
    const t = { callId: 1, companyId, voicemailId: null };
    await events.publish(s.ctx, 'transcript.changed', { ...t, transcriptId: 701, state: 'loading', audioS: null });
    await events.publish(s.ctx, 'transcript.changed', { ...t, transcriptId: 701, state: 'complete', audioS: 125 });
    await events.publish(s.ctx, 'transcript.changed', { ...t, transcriptId: 701, state: 'complete', audioS: 125 });
    await events.publish(s.ctx, 'transcript.changed', { ...t, transcriptId: 702, state: 'failed', audioS: 30 });
    await events.publish(s.ctx, 'transcript.changed', { ...t, transcriptId: 703, state: 'complete', audioS: 60 });

    const u = await usage(acc);
    expect(u.metered).toEqual({ faxPages: 5, lookups: 2, transcriptionMinutes: 4 });
    // 5 pages × 5¢ = 25¢, 2 lookups × 1¢ = 2¢, 4 minutes × 2¢ = 8¢: 35¢.
    expect(METERED_PRICES_CENTS).toEqual({ fax_pages: 5, lookups: 1, transcription_minutes: 2 });
    const byKind = Object.fromEntries(u.overage.map((l: { kind: string; amountCents: number }) => [l.kind, l.amountCents]));
    expect(byKind).toMatchObject({ overage_fax_pages: 25, overage_lookups: 2, overage_transcription: 8 });
    expect(u.overageCents).toBe(35);

    // Another company's events do not count here.
    const other = await createAccount(s);
    await usage(other); // opens its billing: its period starts now
    await events.publish(s.ctx, 'fax.changed', { ...fax, companyId: other.companyId, faxId: 504, status: 'delivered', pages: 9 });
    expect((await usage(acc)).metered.faxPages).toBe(5);
    expect((await usage(other)).metered.faxPages).toBe(9);

    // The period ends: the renewal invoice carries the overage lines.
    await runBillingTick(s.ctx, new Date(end.getTime() + 60_000));
    const invoices = await acc.client.get(`/api/company/${companyId}/invoices`);
    expect(invoices.status).toBe(200);
    const renewal = invoices.body.data.find((i: { kind: string }) => i.kind === 'renewal');
    expect(renewal).toBeTruthy();
    const lines = Object.fromEntries(renewal.lines.map((l: { kind: string; quantity: number; amountCents: number }) => [l.kind, [l.quantity, l.amountCents]]));
    expect(lines.overage_fax_pages).toEqual([5, 25]);
    expect(lines.overage_lookups).toEqual([2, 2]);
    expect(lines.overage_transcription).toEqual([4, 8]);
    expect(renewal.totalCents).toBe(renewal.lines.reduce((t: number, l: { amountCents: number }) => t + l.amountCents, 0));
  });

  it('bills nothing for the metered services during a trial renewal', async () => {
    const trial = await createAccount(s);
    await usage(trial);
    const sub = await billingRepository.subscription(s.ctx.db, trial.companyId);
    expect(sub?.status).toBe('trialing');
    await events.publish(s.ctx, 'fax.changed', {
      companyId: trial.companyId,
      numberId: 1,
      direction: 'inbound',
      remote: '+15125550100',
      faxId: 601,
      status: 'received',
      pages: 4,
    });
    await runBillingTick(s.ctx, new Date(sub!.current_period_end.getTime() + 60_000));
    const invoices = (await trial.client.get(`/api/company/${trial.companyId}/invoices`)).body.data;
    expect(invoices.flatMap((i: { lines: Array<{ kind: string }> }) => i.lines.map((l) => l.kind))).not.toContain('overage_fax_pages');
  });

  it('bills the 10DLC registration fees of a submit once, at cost, even at the end of a trial', async () => {
    const acc2 = await createAccount(s);
    await usage(acc2);
    const sub = await billingRepository.subscription(s.ctx.db, acc2.companyId);
    expect(sub?.status).toBe('trialing');
    const submit = {
      companyId: acc2.companyId,
      campaignId: 77,
      submittedAt: new Date().toISOString(),
      fees: [
        { code: 'brand_registration', label: 'Brand registration', amountCents: 400 },
        { code: 'campaign_vetting', label: 'Campaign vetting', amountCents: 1500 },
        { code: 'campaign_fee', label: 'Campaign fee (3 months)', amountCents: 3000 },
        { code: 'toll_free_verification', label: 'Toll-free verification', amountCents: 0 },
      ],
    };
    await events.publish(s.ctx, 'sms-verification.submitted', submit);
    await events.publish(s.ctx, 'sms-verification.submitted', submit); // repeated: billed once
    // A resubmission later (campaign vetting again) is another submit.
    const later = new Date(Date.now() + 1000).toISOString();
    await events.publish(s.ctx, 'sms-verification.submitted', { ...submit, submittedAt: later, fees: [submit.fees[1]!] });
    const u = await usage(acc2);
    expect(u.overage.find((l: { kind: string }) => l.kind === 'registration_fees')).toMatchObject({ quantity: 1, amountCents: 6400 });
    await runBillingTick(s.ctx, new Date(sub!.current_period_end.getTime() + 60_000));
    const invoices = (await acc2.client.get(`/api/company/${acc2.companyId}/invoices`)).body.data;
    const lines = invoices.flatMap((i: { lines: Array<{ kind: string; amountCents: number; description: string }> }) => i.lines);
    expect(lines.filter((l: { kind: string }) => l.kind === 'registration_fees')).toEqual([
      expect.objectContaining({ description: '10DLC registration fees', amountCents: 6400 }),
    ]);
  });
});
