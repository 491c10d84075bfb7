/**
 * SMS verification through the real server with the sandbox registry and a sped-up registry clock
 * (docs/sms-verification.md): every call with its 422s, another company's ids and the roles; a brand and campaign
 * through pending → verified/rejected (an opt-in without consent wording) → fixed and resubmitted → approved, watched
 * live; fees due today; add and remove numbers; cancel per side (expired at once); a campaign from an unregistered
 * number refused while an inbox reply from it is sent; the approved campaign's throughput applied to the sender.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { registryClock, sandboxRegistryTuning } from '../../platform/registration/index.js';
import { sql } from 'kysely';
import { campaignRuntime, setCompanyCampaignRate } from '../campaigns/campaigns.service.js';
import { addContactsToGroups, createGroup } from '../contacts/groups.service.js';
import { createContact } from '../contacts/contacts.service.js';
import { buyTestNumber, connectSocket, subscribe } from '../messaging/messaging.test-helpers.js';
import { smsVerificationTuning } from './sms-verification.service.js';

let s: TestServer;
let owner: Account;
let other: Account;
let billingUser: Account;
let plainUser: Account;
let local: { id: number; number: string };
let unregistered: { id: number; number: string };
let tollFree: { id: number; number: string };
let otherNumber: { id: number; number: string };
const sockets: Socket[] = [];
const realRuntime = { ...campaignRuntime };
const realTuning = { ...sandboxRegistryTuning };

const base = (a: Account, companyId = a.companyId) => `/api/companies/${companyId}/sms-verification/campaign`;

const BRAND = {
  company_type: 'PRIVATE_PROFIT',
  legal_name: 'Ortiz Auto Group LLC',
  dba_name: 'Ortiz Auto',
  tax_id: '12-3456730',
  vertical: 'RETAIL',
  website: 'https://ortizauto.example',
  email: 'compliance@ortizauto.example',
  phone: '+13125550100',
  street: '100 W Madison St',
  city: 'Chicago',
  state: 'IL',
  postal_code: '60602',
  country: 'US',
  contact_first_name: 'Ana',
  contact_last_name: 'Ortiz',
};
const CAMPAIGN = {
  use_case: 'MARKETING',
  sub_usecases: ['CUSTOMER_CARE'],
  description: 'Ortiz Auto texts customers who asked for service reminders and monthly offers on cars and parts.',
  message_volume: '25_000',
  sample_messages: ['Ortiz Auto: your oil change is due. Book at ortizauto.example. Reply STOP to opt out.', 'Ortiz Auto: 10% off tires this week.'],
  optins: [{ method: 'POINT_OF_SALE', description: 'Customers give their mobile number at the service desk.' }],
  opt_out_message: 'You are unsubscribed from Ortiz Auto texts. Reply START to resubscribe.',
  help_message: 'Ortiz Auto: call (312) 555-0100 for help. Reply STOP to opt out.',
};

beforeAll(async () => {
  s = await startTestServer({ smsRegistry: { adapter: 'sandbox', enforced: true, pollS: 60, telnyxApiKey: '', telnyxPublicKey: '' } });
  Object.assign(sandboxRegistryTuning, { brandReviewMs: 60_000, campaignReviewMs: 120_000, tollFreeReviewMs: 180_000 });
  smsVerificationTuning.pollMs = 200;
  [owner, other, billingUser, plainUser] = await Promise.all([createAccount(s), createAccount(s), createAccount(s), createAccount(s)]);
  for (const [acc, role] of [
    [billingUser, 'billing'],
    [plainUser, 'user'],
  ] as const) {
    const r = await owner.client.post(`/api/companies/${owner.companyId}/invitations`, { email: acc.email, role });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  }
  local = await buyTestNumber(owner, '312');
  unregistered = await buyTestNumber(owner, '312', 1);
  otherNumber = await buyTestNumber(other, '213');
  const search = await owner.client.get('/api/numbers/search?type=toll_free&prefix=800');
  expect(search.status, JSON.stringify(search.body)).toBe(200);
  const bought = await owner.client.post('/api/numbers', {
    company_id: owner.companyId,
    provider_id: search.body.data[0].provider_id,
    number: search.body.data[0].number,
  });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  tollFree = { id: bought.body.id, number: bought.body.number };
}, 180_000);

afterAll(async () => {
  Object.assign(campaignRuntime, realRuntime);
  Object.assign(sandboxRegistryTuning, realTuning);
  smsVerificationTuning.pollMs = null;
  registryClock.reset();
  for (const so of sockets) so.close();
  await s?.close();
});

/** Moves the registry's clock and waits until the review job has applied `check`. */
async function advanceUntil<T>(ms: number, check: () => Promise<T | undefined | false>): Promise<T> {
  registryClock.advance(ms);
  return eventually(check, 15_000, 100);
}

async function campaignOf(id: number, a = owner) {
  const r = await a.client.get(`${base(a)}/${id}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}

async function numberStatus(id: number): Promise<string> {
  const r = await owner.client.get(`/api/numbers/${id}`);
  expect(r.status).toBe(200);
  return r.body.sms_verification.status;
}

/** A group of `n` contacts in Chicago (312) for campaign sending. */
let seq = 0;
async function groupOf(n: number): Promise<number> {
  const group = await createGroup(s.ctx, owner.userId, { company_id: owner.companyId, name: `SMS group ${++seq}` });
  const ids = [];
  for (let i = 0; i < n; i++) {
    seq += 1;
    const c = await createContact(s.ctx, owner.companyId, { name: `Driver ${seq}`, number: `+1312555${String(2000 + seq).slice(-4)}` });
    ids.push(c.id);
  }
  await addContactsToGroups(s.ctx, [group.id], ids);
  return group.id;
}

/** A clock at about 12:00 in Chicago (inside the quiet-hours window there). */
function middayInChicago(): () => Date {
  const [h, m] = new Date()
    .toLocaleTimeString('en-US', { timeZone: 'America/Chicago', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' })
    .split(':')
    .map(Number) as [number, number];
  const shift = (12 * 60 - (h * 60 + m)) * 60_000;
  return () => new Date(Date.now() + shift);
}

describe('calls, roles, other companies and 422s', () => {
  it('validates input field by field and refuses what the caller may not do', async () => {
    const bad = await owner.client.post(base(owner), {
      brand: { tax_id: '12', company_type: 'LLC', website: 'ortiz' },
      campaign: { use_case: 'SPAM', message_volume: '5' },
    });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual([
      'brand.company_type',
      'brand.tax_id',
      'brand.website',
      'campaign.message_volume',
      'campaign.use_case',
    ]);
    expect((await owner.client.post(base(owner), { unknown: 1 })).status).toBe(422);

    const created = await owner.client.post(base(owner), { brand: { legal_name: 'Draft Co' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const c = created.body.data;
    expect(c).toMatchObject({
      is_draft: true,
      is_submitted: false,
      status: { local: null, toll_free: null },
      brand: { is_draft: true, status: 'draft', legal_name: 'Draft Co' },
    });

    // Roles: every member reads (company.read); only owner and administrator change (settings.manage).
    expect((await plainUser.client.get(base(owner))).status).toBe(200);
    expect((await billingUser.client.get(`${base(owner)}/${c.id}`)).status).toBe(200);
    expect((await billingUser.client.post(base(owner), {})).status).toBe(403);
    expect((await plainUser.client.post(`${base(owner)}/${c.id}/submit`)).status).toBe(403);
    expect((await plainUser.client.delete(`${base(owner)}/${c.id}`)).status).toBe(403);

    // Another company: not a member of it (403), or its id under one's own company (404).
    expect((await other.client.get(base(owner))).status).toBe(403);
    expect((await other.client.get(`${base(other)}/${c.id}`)).status).toBe(404);
    expect((await other.client.post(`${base(other)}/${c.id}/submit`)).status).toBe(404);
    expect((await other.client.post(`${base(other)}/${c.id}/${c.brand.id}`, { brand: { legal_name: 'x' } })).status).toBe(404);
    expect((await other.client.post(`${base(other)}/${c.id}/cancel`, { sides: ['local'] })).status).toBe(404);
    expect((await owner.client.post(`${base(owner)}/${c.id}/add-numbers`, { number_ids: [otherNumber.id] })).status).toBe(404);
    expect((await owner.client.post(`${base(owner)}/${c.id}/${c.brand.id + 999}`, { brand: { legal_name: 'x' } })).status).toBe(404);

    // 422s of the other calls.
    expect((await owner.client.post(`${base(owner)}/${c.id}/cancel`, { sides: [] })).status).toBe(422);
    expect((await owner.client.post(`${base(owner)}/${c.id}/cancel`, { sides: ['local'] })).status).toBe(422); // never submitted
    expect((await owner.client.post(`${base(owner)}/${c.id}/add-numbers`, { number_ids: [] })).status).toBe(422);
    expect((await owner.client.post(`${base(owner)}/${c.id}/remove-numbers`, { number_ids: [local.id] })).status).toBe(422);
    expect((await owner.client.get(`${base(owner)}/abc`)).status).toBe(422);
    const incomplete = await owner.client.post(`${base(owner)}/${c.id}/submit`);
    expect(incomplete.status).toBe(422);
    expect(incomplete.body.message).toMatch(/^The SMS verification is incomplete/);
    expect(incomplete.body.errors).toHaveProperty(['brand.tax_id']);
    expect(incomplete.body.errors).toHaveProperty(['campaign.use_case']);
    // Fields are named by their labels, never raw keys such as "brand stock_exchange".
    expect(incomplete.body.message).toContain('EIN (tax id)');
    expect(incomplete.body.message).toContain('Use case');
    expect(incomplete.body.message).not.toMatch(/brand |campaign |_/);
    // The same checks alone, before any fee is confirmed: nothing is submitted.
    const check = await owner.client.post(`${base(owner)}/${c.id}/check`);
    expect(check.status).toBe(422);
    expect(check.body).toEqual(incomplete.body);
    expect((await owner.client.get(`${base(owner)}/${c.id}`)).body.data.status.local).toBeNull();

    // A draft can be deleted.
    expect((await owner.client.delete(`${base(owner)}/${c.id}`)).status).toBe(200);
    expect((await owner.client.get(`${base(owner)}/${c.id}`)).status).toBe(404);
  });
});

describe('a submission through its states', () => {
  let id: number;
  let brandId: number;

  it('saves a draft by multipart with a supporting file, adds a number, shows the fees due today', async () => {
    const created = await owner.client.post(base(owner), { brand: BRAND });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    id = created.body.data.id;
    brandId = created.body.data.brand.id;
    expect(created.body.data.brand.tax_id).toBe('123456730');

    const form = new FormData();
    form.append('data', JSON.stringify({ campaign: CAMPAIGN }));
    form.append('optin_0_files', new Blob([Buffer.from('%PDF-1.4 sign-up sheet')], { type: 'application/pdf' }), 'signup.pdf');
    const saved = await owner.client.post(`${base(owner)}/${id}/${brandId}`, form);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const file = saved.body.data.optins[0].supporting_files[0];
    expect(file).toMatchObject({ name: 'signup.pdf', content_type: 'application/pdf' });
    // The file lives in the company's private blob space: served to its members, not to others.
    const path = new URL(file.url).pathname;
    expect((await owner.client.get(path)).status).toBe(200);
    expect((await other.client.get(path)).status).toBe(404);

    const exe = new FormData();
    exe.append('data', JSON.stringify({ campaign: CAMPAIGN }));
    exe.append('optin_0_files', new Blob([Buffer.from('MZ')], { type: 'application/x-msdownload' }), 'a.exe');
    expect((await owner.client.post(`${base(owner)}/${id}/${brandId}`, exe)).status).toBe(422);

    const added = await owner.client.post(`${base(owner)}/${id}/add-numbers`, { number_ids: [local.id] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data.numbers).toEqual([{ id: local.id, number: local.number, national_number: expect.any(String), side: 'local' }]);
    // Fees (cents): brand registration 400 + campaign vetting 1500 + 3 months × 1000 (25_000 bucket) = 4900.
    expect(added.body.data.fees.due_today).toBe(4900);
    expect(added.body.data.fees.items.map((f: { code: string }) => f.code)).toEqual(['brand_registration', 'campaign_vetting', 'campaign_fee']);
    expect(await numberStatus(local.id)).toBe('unverified');
  });

  it('submits, the brand is verified, the campaign rejected with a reason a person can act on, all live', async () => {
    const socket = await connectSocket(s, owner.client);
    sockets.push(socket);
    expect((await subscribe(socket, `company.${owner.companyId}`)).ok).toBe(true);
    const live: Array<{ subject: string; status: string }> = [];
    socket.on('sms verification updated', (e: { subject: string; status: string }) => live.push(e));

    expect((await owner.client.post(`${base(owner)}/${id}/check`)).body).toEqual({ message: 'The SMS verification is complete and ready to submit.' });
    const r = await owner.client.post(`${base(owner)}/${id}/submit`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('Your SMS Verification has been submitted successfully.');
    expect(r.body.data).toMatchObject({
      is_draft: false,
      is_submitted: true,
      status: { local: 'pending', toll_free: null },
      brand: { status: 'pending' },
      fees: { due_today: 0 },
    });
    expect(await numberStatus(local.id)).toBe('pending');
    // The fees due at the submit go to billing (docs/sms-verification.md "Fees"): usage rows in cents.
    const fees = await s.ctx.db
      .selectFrom('billing_usage')
      .select(['quantity'])
      .where('company_id', '=', owner.companyId)
      .where('kind', '=', 'registration_fees')
      .execute();
    expect(fees.reduce((t, f) => t + f.quantity, 0)).toBeGreaterThan(0);
    // Pending: nothing changes, no second submit, the campaign cannot be edited.
    expect((await owner.client.post(`${base(owner)}/${id}/submit`)).status).toBe(422);
    expect((await owner.client.post(`${base(owner)}/${id}/${brandId}`, { campaign: { description: 'x' } })).status).toBe(409);

    // 60 s later the brand is verified with the vetting score of its EIN (…30 → 30).
    const verified = await advanceUntil(60_000, async () => {
      const c = await campaignOf(id);
      return c.brand.status === 'verified' && c;
    });
    expect(verified.brand.vetting_score).toBe(30);
    expect(verified.status.local).toBe('pending');

    // 120 s after the submit the campaign is rejected: the opt-in description has no consent wording.
    const rejected = await advanceUntil(60_000, async () => {
      const c = await campaignOf(id);
      return c.status.local === 'rejected' && c;
    });
    expect(rejected.reasons.local).toMatch(/^Opt-in description missing the consent wording/);
    expect(await numberStatus(local.id)).toBe('unverified');
    await eventually(async () => live.length >= 2);
    expect(live).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ subject: 'brand', status: 'verified' }),
        expect.objectContaining({ subject: 'local', status: 'rejected' }),
      ]),
    );
    expect(rejected.history.map((h: { subject: string; to_status: string }) => `${h.subject}:${h.to_status}`)).toEqual([
      'brand:pending',
      'local:pending',
      'brand:verified',
      'local:rejected',
    ]);
  });

  it('is fixed and resubmitted to approval; only the campaign vetting is due again', async () => {
    const fixed = await owner.client.post(`${base(owner)}/${id}/${brandId}`, {
      campaign: {
        optins: [{ method: 'POINT_OF_SALE', description: 'At the service desk customers sign: "I agree to receive text messages from Ortiz Auto."' }],
      },
    });
    expect(fixed.status, JSON.stringify(fixed.body)).toBe(200);
    expect(fixed.body.data.optins[0].supporting_files.map((f: { name: string }) => f.name)).toEqual(['signup.pdf']); // kept
    expect(fixed.body.data.fees).toEqual({ due_today: 1500, items: [{ code: 'campaign_vetting', label: 'Campaign vetting', amount_cents: 1500 }] });
    // The verified brand cannot be changed any more.
    expect((await owner.client.post(`${base(owner)}/${id}/${brandId}`, { brand: { legal_name: 'Other' } })).status).toBe(409);

    const r = await owner.client.post(`${base(owner)}/${id}/submit`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.status.local).toBe('pending');
    const approved = await advanceUntil(120_000, async () => {
      const c = await campaignOf(id);
      return c.status.local === 'approved' && c;
    });
    expect(approved.reasons.local).toBeNull();
    // Score 30 → 4 messages/s and 10,000/day per number (docs "Throughput").
    expect(approved.limits.local).toEqual({ per_second: 4, per_day: 10_000 });
    expect(await numberStatus(local.id)).toBe('verified');
  });

  it('refuses a campaign from an unregistered number, still sends its inbox reply, and paces the approved one', async () => {
    campaignRuntime.now = middayInChicago();
    await setCompanyCampaignRate(s.ctx, owner.companyId, 0); // unlimited by the company: the registration's limit applies
    const groupId = await groupOf(9);
    const queued = {
      company_id: owner.companyId,
      title: 'Tires',
      state: 'queued',
      groups: [groupId],
      text: 'Tires 10% off',
      unsubscribe_text: 'Reply STOP to stop',
    };

    const refused = await owner.client.post('/api/campaigns', { ...queued, number_id: unregistered.id });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.number_id[0]).toContain('is not on an approved SMS verification campaign');
    expect(refused.body.errors.number_id[0]).toContain('/sms-verification');
    const national = (await owner.client.get(`/api/numbers/${unregistered.id}`)).body.national_number;
    expect(refused.body.errors.number_id[0]).toContain(national);
    // The campaign editor's picker knows this before any send is confirmed: the same refusal, per number.
    const picker = await owner.client.get(`/api/campaigns/sending-numbers?company_id=${owner.companyId}`);
    expect(picker.status).toBe(200);
    const state = (id: number) => picker.body.data.find((n: { number_id: number }) => n.number_id === id);
    expect(state(unregistered.id)).toMatchObject({ verification: 'unverified', allowed: false, message: refused.body.errors.number_id[0] });
    expect(state(local.id)).toMatchObject({ verification: 'verified', allowed: true, message: null });
    expect((await owner.client.get(`/api/campaigns/sending-numbers?company_id=${owner.companyId + 100000}`)).status).toBe(403);
    // A draft from it is fine; the inbox reply from it is sent.
    expect((await owner.client.post('/api/campaigns', { ...queued, state: 'draft', number_id: unregistered.id })).status).toBe(201);
    const reply = await owner.client.post('/api/message', {
      company_id: owner.companyId,
      number_id: unregistered.id,
      to: '+13125550199',
      content: 'Your car is ready.',
    });
    expect(reply.status, JSON.stringify(reply.body)).toBeLessThan(300);

    const sent = await owner.client.post('/api/campaigns', { ...queued, number_id: local.id });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const done = await eventually(
      async () => {
        const c = (await owner.client.get(`/api/campaigns/${sent.body.id}`)).body;
        return c.state === 'sent' && c;
      },
      30_000,
      200,
    );
    expect(done.state).toBe('sent');
    const rows = await s.ctx.db
      .selectFrom('sandbox_messages')
      .select('created_at')
      .where('from_number', '=', local.number)
      .where('body', 'like', 'Tires%')
      .orderBy('created_at')
      .execute();
    expect(rows).toHaveLength(9);
    // 9 messages at 4/s in batches of 4, 4 and 1 from a bucket holding 1 token: the first batch leaves after 0.75 s,
    // the second 1 s later, the last 0.25 s after that, so first to last message takes 1.25 s (unlimited: ~0 s).
    const spanMs = rows[8]!.created_at.getTime() - rows[0]!.created_at.getTime();
    expect(spanMs).toBeGreaterThanOrEqual(1_200);
    expect(spanMs).toBeLessThan(5_000);
  }, 60_000);

  it("stops a campaign at the number's daily limit (10,000 at score 30) and leaves the rest for after midnight UTC", async () => {
    campaignRuntime.now = middayInChicago();
    const dayStart = new Date(Math.floor(campaignRuntime.now().getTime() / 86_400_000) * 86_400_000);
    const counted = await sql<{ n: string }>`select count(*) as n from campaign_recipients r join campaigns c on c.id = r.campaign_id
      where c.number_id = ${local.id} and r.sent_at >= ${dayStart}`.execute(s.ctx.db);
    const already = Number(counted.rows[0]!.n);
    // Messages the number sent earlier today (another campaign's ledger): 5 are left of today's 10,000.
    const earlier = await s.ctx.db.selectFrom('campaigns').select('id').where('number_id', '=', local.id).executeTakeFirstOrThrow();
    await sql`insert into campaign_recipients (campaign_id, company_id, contact_id, number, state, sent_at)
      select ${earlier.id}, ${owner.companyId}, -g, '+13125550000', 'sent', ${campaignRuntime.now()}
      from generate_series(1, ${10_000 - already - 5}) g`.execute(s.ctx.db);
    const groupId = await groupOf(9);
    const r = await owner.client.post('/api/campaigns', {
      company_id: owner.companyId,
      title: 'Brakes',
      state: 'queued',
      groups: [groupId],
      text: 'Brakes checked free this week',
      unsubscribe_text: 'Reply STOP to stop',
      number_id: local.id,
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const sentCount = async () =>
      Number(
        (
          await s.ctx.db
            .selectFrom('sandbox_messages')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('from_number', '=', local.number)
            .where('body', 'like', 'Brakes%')
            .executeTakeFirstOrThrow()
        ).n,
      );
    await eventually(async () => (await sentCount()) === 5 || null, 30_000, 200);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await sentCount()).toBe(5);
    const c = (await owner.client.get(`/api/campaigns/${r.body.id}`)).body;
    expect(c.state).toBe('sending');
    const pending = await s.ctx.db
      .selectFrom('campaign_recipients')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('campaign_id', '=', r.body.id)
      .where('state', '=', 'pending')
      .executeTakeFirstOrThrow();
    expect(Number(pending.n)).toBe(4);
    expect((await owner.client.delete(`/api/campaigns/${r.body.id}`)).status).toBeLessThan(300);
  }, 60_000);

  it('adds a toll-free number, submits its side, cancels both sides at once, removes numbers', async () => {
    const added = await owner.client.post(`${base(owner)}/${id}/add-numbers`, { number_ids: [tollFree.id] });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data.numbers.map((n: { side: string }) => n.side).sort()).toEqual(['local', 'toll_free']);
    expect(added.body.data.fees).toEqual({ due_today: 0, items: [{ code: 'toll_free_verification', label: 'Toll-free verification', amount_cents: 0 }] });
    // A number is on one campaign only.
    const second = await owner.client.post(base(owner), {});
    expect(second.status).toBe(201);
    const twice = await owner.client.post(`${base(owner)}/${second.body.data.id}/add-numbers`, { number_ids: [local.id] });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.number_ids[0]).toContain(`is already on SMS verification campaign #${id}`);

    const r = await owner.client.post(`${base(owner)}/${id}/submit`);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.status).toEqual({ local: 'approved', toll_free: 'pending' });
    await advanceUntil(180_000, async () => (await campaignOf(id)).status.toll_free === 'approved');
    expect(await numberStatus(tollFree.id)).toBe('verified');

    const canceled = await owner.client.post(`${base(owner)}/${id}/cancel`, { sides: ['local', 'toll_free'] });
    expect(canceled.status, JSON.stringify(canceled.body)).toBe(200);
    expect(canceled.body.data.status).toEqual({ local: 'expired', toll_free: 'expired' });
    expect(await numberStatus(local.id)).toBe('unverified');
    expect(await numberStatus(tollFree.id)).toBe('unverified');
    expect((await owner.client.post(`${base(owner)}/${id}/cancel`, { sides: ['local'] })).status).toBe(422); // already expired
    const now = await owner.client.post('/api/campaigns', {
      company_id: owner.companyId,
      title: 'After cancel',
      state: 'queued',
      groups: [await groupOf(1)],
      text: 'Hi',
      unsubscribe_text: 'Reply STOP to stop',
      number_id: local.id,
    });
    expect(now.status).toBe(422);

    const removed = await owner.client.post(`${base(owner)}/${id}/remove-numbers`, { number_ids: [local.id, tollFree.id] });
    expect(removed.status, JSON.stringify(removed.body)).toBe(200);
    expect(removed.body.data.numbers).toEqual([]);
    expect((await owner.client.post(`${base(owner)}/${id}/remove-numbers`, { number_ids: [local.id] })).status).toBe(422);
  });
});
