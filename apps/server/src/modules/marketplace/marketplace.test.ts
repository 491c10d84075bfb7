/**
 * The number marketplace through the real server (docs/marketplace.md): listing a number, browsing (filters, paging),
 * KPI, detail, listings, update (draft, price, withdraw, relist), a purchase charged on the buyer's sandbox card that
 * transfers the number and credits the seller, declines and missing cards, roles, another company's ids, 422s, and
 * the CSV report `marketplace_report.csv`.
 */
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { eventually, startTestServer, type TestServer } from '../../../test/harness.js';
import { SANDBOX_BASE, SANDBOX_PUBLISHABLE_KEY } from '../../platform/payments/index.js';
import { billingRepository } from '../billing/billing.repository.js';
import { buyTestNumber } from '../messaging/messaging.test-helpers.js';

let s: TestServer;
let seller: Account;
let buyer: Account;
let third: Account;
let sellerUser: Account;
let sellerReporting: Account;
let sellerBilling: Account;
let sellerNumber: { id: number; number: string };
let buyerNumber: { id: number; number: string };

const base = (a: Account) => `/api/companies/${a.companyId}/marketplace/numbers`;

beforeAll(async () => {
  s = await startTestServer();
  seller = await createAccount(s, { companyName: 'Vanity Numbers LLC' });
  buyer = await createAccount(s, { companyName: 'Flowers Direct' });
  third = await createAccount(s);
  sellerUser = await createAccount(s);
  sellerReporting = await createAccount(s);
  sellerBilling = await createAccount(s);
  for (const [acc, role] of [
    [sellerUser, 'user'],
    [sellerReporting, 'reporting'],
    [sellerBilling, 'billing'],
  ] as const) {
    const r = await seller.client.post(`/api/companies/${seller.companyId}/invitations`, { email: acc.email, role });
    expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
  }
  sellerNumber = await buyTestNumber(seller, '512');
  buyerNumber = await buyTestNumber(buyer, '737');
}, 180_000);

afterAll(async () => {
  await s?.close();
});

async function saveCard(a: Account, number: string): Promise<void> {
  const res = await fetch(`${s.url}${SANDBOX_BASE}/payment_methods`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_PUBLISHABLE_KEY}` },
    body: JSON.stringify({ number, cvc: '123', exp_month: 12, exp_year: new Date().getUTCFullYear() + 2 }),
  });
  const pm = (await res.json()) as { id: string };
  const saved = await a.client.post(`/api/company/${a.companyId}/billing`, { chargify_token: pm.id });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
}

let marketId: number;

describe('listing', () => {
  it('refuses bad input (422) and numbers that are not the company’s', async () => {
    const c = seller.client;
    const low = await c.post(base(seller), { number_id: sellerNumber.id, price_cents: 50 });
    expect(low.status).toBe(422);
    expect(low.body.errors).toHaveProperty('price_cents');
    expect((await c.post(base(seller), { number_id: sellerNumber.id, price_cents: 12.5 })).body.errors).toHaveProperty('price_cents');
    expect((await c.post(base(seller), { number_id: sellerNumber.id, price_cents: 1000, state: 'sold' })).body.errors).toHaveProperty('state');
    expect((await c.post(base(seller), { number_id: sellerNumber.id, price_cents: 1000, extra: 1 })).status).toBe(422);
    const foreign = await c.post(base(seller), { number_id: buyerNumber.id, price_cents: 1000 });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toHaveProperty('number_id');
    expect((await c.get(`${base(seller)}?area_code=5a2`)).body.errors).toHaveProperty('area_code');
    expect((await c.get(`${base(seller)}?min_price=500&max_price=100`)).body.errors).toHaveProperty('max_price');
    expect((await c.get(`${base(seller)}?per_page=500`)).status).toBe(422);
    expect((await c.get(`/api/companies/${seller.companyId}/marketplace/numbers/abc`)).status).toBe(422);
  });

  it('lets owners list a number; the user role browses but cannot list; billing cannot browse', async () => {
    expect((await sellerUser.client.post(base(seller), { number_id: sellerNumber.id, price_cents: 25_000 })).status).toBe(403);
    expect((await sellerReporting.client.post(base(seller), { number_id: sellerNumber.id, price_cents: 25_000 })).status).toBe(403);
    expect((await sellerBilling.client.get(base(seller))).status).toBe(403);
    expect((await third.client.get(base(seller))).status).toBe(403);
    const r = await seller.client.post(base(seller), { number_id: sellerNumber.id, price_cents: 25_000, title: 'Memorable 512 number' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('Your number is listed on the marketplace.');
    expect(r.body.data).toMatchObject({ number: sellerNumber.number, priceCents: 25_000, state: 'listed', heldByYou: true, yourRole: 'seller' });
    expect(r.body.data.sellerCompanyName).toBe('Vanity Numbers LLC');
    marketId = r.body.data.id;
    const again = await seller.client.post(base(seller), { number_id: sellerNumber.id, price_cents: 30_000 });
    expect(again.status).toBe(422);
    expect(again.body.errors).toHaveProperty('number_id');
    const asUser = await sellerUser.client.get(`${base(seller)}?scope=mine`);
    expect(asUser.status).toBe(200);
    expect(asUser.body.data.map((n: { id: number }) => n.id)).toEqual([marketId]);
  });

  it('shows listed numbers to other companies with filters and paging; drafts only to their seller', async () => {
    const list = await buyer.client.get(`${base(buyer)}?area_code=512&sort=price_asc&per_page=1`);
    expect(list.status).toBe(200);
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 1, total: 1, last_page: 1 });
    expect(list.body.data[0]).toMatchObject({ id: marketId, state: 'listed', heldByYou: false, yourRole: null, priceCents: 25_000 });
    expect((await buyer.client.get(`${base(buyer)}?area_code=212`)).body.meta.total).toBe(0);
    expect((await buyer.client.get(`${base(buyer)}?max_price=20000`)).body.meta.total).toBe(0);
    expect((await buyer.client.get(`${base(buyer)}?q=memorable`)).body.meta.total).toBe(1);
    expect((await buyer.client.get(`${base(buyer)}?scope=mine`)).body.meta.total).toBe(0);
    expect((await buyer.client.get(`${base(buyer)}/${marketId}`)).status).toBe(200);
    // Another company may not change the listing.
    expect((await buyer.client.put(`${base(buyer)}/${marketId}`, { price_cents: 100 })).status).toBe(403);

    const draft = await seller.client.put(`${base(seller)}/${marketId}`, { state: 'draft' });
    expect(draft.status, JSON.stringify(draft.body)).toBe(200);
    expect(draft.body.data.state).toBe('draft');
    expect((await buyer.client.get(`${base(buyer)}/${marketId}`)).status).toBe(404);
    expect((await buyer.client.get(`${base(buyer)}/${marketId}/listings`)).status).toBe(404);
    expect((await buyer.client.get(base(buyer))).body.meta.total).toBe(0);
    expect((await buyer.client.post(`${base(buyer)}/${marketId}/purchase`, { expected_price_cents: 25_000 })).status).toBe(404);

    const back = await seller.client.put(`${base(seller)}/${marketId}`, { state: 'listed', price_cents: 30_000 });
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ state: 'listed', priceCents: 30_000 });
    expect((await seller.client.put(`${base(seller)}/${marketId}`, { state: 'sold' })).status).toBe(422);
  });
});

describe('buying', () => {
  it('refuses the seller, a changed price, a buyer without a card and a declined card, leaving the number for sale', async () => {
    const own = await seller.client.post(`${base(seller)}/${marketId}/purchase`, { expected_price_cents: 30_000 });
    expect(own.status).toBe(422);
    const changed = await buyer.client.post(`${base(buyer)}/${marketId}/purchase`, { expected_price_cents: 25_000 });
    expect(changed.status).toBe(422);
    expect(changed.body.errors).toHaveProperty('expected_price_cents');
    const noCard = await buyer.client.post(`${base(buyer)}/${marketId}/purchase`, { expected_price_cents: 30_000 });
    expect(noCard.status).toBe(422);
    expect(noCard.body.errors).toHaveProperty('payment');
    expect((await buyer.client.get(`${base(buyer)}/${marketId}`)).body.data.state).toBe('listed');

    await saveCard(buyer, '4000000000000341'); // saved, every charge declined
    const declined = await buyer.client.post(`${base(buyer)}/${marketId}/purchase`, { expected_price_cents: 30_000 });
    expect(declined.status).toBe(422);
    expect(declined.body.errors).toHaveProperty('payment');
    expect((await buyer.client.get(`${base(buyer)}/${marketId}`)).body.data.state).toBe('listed');
    const invoices = (await buyer.client.get(`/api/company/${buyer.companyId}/invoices`)).body.data;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ kind: 'purchase', status: 'void', totalCents: 30_000, amountDueCents: 0 });
    // A declined purchase does not make the account past due.
    expect((await buyer.client.get(`/api/company/${buyer.companyId}/billing`)).body.data.pastDue).toBe(false);
    // The user role may browse but not buy.
    expect((await sellerUser.client.post(`${base(seller)}/${marketId}/purchase`, { expected_price_cents: 30_000 })).status).toBe(403);
  });

  it('charges the buyer, transfers the number, credits the seller the price less the 10% fee', async () => {
    await saveCard(buyer, '4242424242424242');
    // The seller's billing contact: opened billing once (its customer e-mail is the owner's).
    expect((await seller.client.get(`/api/company/${seller.companyId}/billing`)).status).toBe(200);
    const mailSpy = vi.spyOn(s.ctx.mailer, 'send');
    const liveSpy = vi.spyOn(s.ctx.realtime, 'send');
    const r = await buyer.client.post(`${base(buyer)}/${marketId}/purchase`, { expected_price_cents: 30_000 });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.message).toBe('The number is yours: it was added to your numbers.');
    expect(r.body.data).toMatchObject({ state: 'sold', heldByYou: true, yourRole: 'buyer' });
    expect(r.body.numberId).toBe(sellerNumber.id);
    expect(r.body.invoice.totalCents).toBe(30_000);

    // The number is the buyer's now, and no longer the seller's.
    const mine = await buyer.client.get(`/api/numbers/${sellerNumber.id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.number ?? mine.body.data?.number).toBe(sellerNumber.number);
    expect((await seller.client.get(`/api/numbers/${sellerNumber.id}`)).status).toBe(404);

    const invoices = (await buyer.client.get(`/api/company/${buyer.companyId}/invoices`)).body.data;
    const paid = invoices.find((i: { id: number }) => i.id === r.body.invoice.id);
    expect(paid).toMatchObject({ kind: 'purchase', status: 'paid', totalCents: 30_000, amountDueCents: 0 });
    expect(paid.lines).toEqual([expect.objectContaining({ kind: 'marketplace_number', amountCents: 30_000 })]);
    const pdf = await fetch(`${s.url}${paid.pdfUrl}`, { headers: { cookie: `switchboard_session=${buyer.client.cookie('switchboard_session')}` } });
    expect(pdf.status).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // 30 000 − 10% (3 000) = 27 000 cents of credit for the seller, told by e-mail.
    expect((await billingRepository.account(s.ctx.db, seller.companyId))?.credit_cents).toBe(27_000);
    const mails = mailSpy.mock.calls.map((c) => c[0] as { to: string; subject: string; text: string });
    const notice = mails.find((m) => m.subject === `Your number ${sellerNumber.number} was sold`);
    expect(notice?.to).toBe(seller.email);
    expect(notice?.text).toContain('$270.00 was added to your account credit');
    mailSpy.mockRestore();
    // Both sides are told live (`marketplace updated` on their company channel).
    for (const c of [seller.companyId, buyer.companyId])
      expect(liveSpy.mock.calls.some((x) => x[0] === `company.${c}` && x[1] === 'marketplace updated')).toBe(true);
    liveSpy.mockRestore();

    const again = await third.client.post(`${base(third)}/${marketId}/purchase`, { expected_price_cents: 30_000 });
    // Sold: no longer listed for a company with no part in it, but a person who clicks "Buy" a moment late is told
    // it is no longer for sale.
    expect(again.status).toBe(422);
    expect(again.body.errors.id).toBeDefined();
    expect((await third.client.get(`${base(third)}/${marketId}`)).status).toBe(404);
    expect((await seller.client.get(`${base(seller)}/${marketId}`)).body.data).toMatchObject({ state: 'sold', heldByYou: false, yourRole: 'seller' });
  });

  it('shows the listings, the KPI and the report to each side', async () => {
    const sl = await seller.client.get(`${base(seller)}/${marketId}/listings`);
    expect(sl.status).toBe(200);
    expect(sl.body.data).toHaveLength(1);
    expect(sl.body.data[0]).toMatchObject({ state: 'sold', priceCents: 30_000, yourRole: 'seller', feeCents: 3_000, invoiceId: null });
    const bl = await buyer.client.get(`${base(buyer)}/${marketId}/listings`);
    expect(bl.body.data[0]).toMatchObject({ yourRole: 'buyer', feeCents: null });
    expect(bl.body.data[0].invoiceId).toBeGreaterThan(0);

    const sk = (await seller.client.get(`${base(seller)}/kpi`)).body.data;
    expect(sk).toMatchObject({ yourSold: 1, yourSalesCents: 30_000, yourFeesCents: 3_000, yourProceedsCents: 27_000, yourPurchases: 0, yourListed: 0 });
    const bk = (await buyer.client.get(`${base(buyer)}/kpi`)).body.data;
    expect(bk).toMatchObject({ yourSold: 0, yourPurchases: 1, yourSpentCents: 30_000 });
    expect((await sellerBilling.client.get(`${base(seller)}/kpi`)).status).toBe(403);

    const report = await fetch(`${s.url}${base(seller)}/report`, { headers: { cookie: `switchboard_session=${seller.client.cookie('switchboard_session')}` } });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-disposition')).toBe('attachment; filename="marketplace_report.csv"');
    const rows = Papa.parse<Record<string, string>>(await report.text(), { header: true, skipEmptyLines: true }).data;
    expect(rows).toEqual([
      expect.objectContaining({ Number: sellerNumber.number, Role: 'Seller', State: 'Sold', Price: '$300.00', Fee: '$30.00', Net: '$270.00', Invoice: '' }),
    ]);
    const br = await fetch(`${s.url}${base(buyer)}/report`, { headers: { cookie: `switchboard_session=${buyer.client.cookie('switchboard_session')}` } });
    const brows = Papa.parse<Record<string, string>>(await br.text(), { header: true, skipEmptyLines: true }).data;
    expect(brows).toEqual([expect.objectContaining({ Role: 'Buyer', State: 'Sold', Price: '$300.00', Net: '($300.00)', Fee: '' })]);
    expect(brows[0]!.Invoice).toMatch(/^SB-\d{6}$/);
    expect((await seller.client.get(`${base(seller)}/report?state=nope`)).status).toBe(422);
  });

  it('lets the new holder relist the number; the former seller can no longer change it', async () => {
    expect((await seller.client.put(`${base(seller)}/${marketId}`, { price_cents: 100 })).status).toBe(403);
    expect((await buyer.client.put(`${base(buyer)}/${marketId}`, { state: 'listed' })).body.errors).toHaveProperty('price_cents');
    const relist = await buyer.client.put(`${base(buyer)}/${marketId}`, { state: 'listed', price_cents: 45_000 });
    expect(relist.status, JSON.stringify(relist.body)).toBe(200);
    expect(relist.body.data).toMatchObject({ state: 'listed', priceCents: 45_000, heldByYou: true, yourRole: 'seller', sellerCompanyName: 'Flowers Direct' });
    const history = (await buyer.client.get(`${base(buyer)}/${marketId}/listings`)).body.data;
    expect(history.map((l: { state: string }) => l.state)).toEqual(['listed', 'sold']);
    const withdrawn = await buyer.client.put(`${base(buyer)}/${marketId}`, { state: 'withdrawn' });
    expect(withdrawn.body.message).toBe('Your number was withdrawn from the marketplace.');
    expect((await third.client.get(`${base(third)}/${marketId}`)).status).toBe(404);
  });

  it('withdraws the listing of a number its seller releases', async () => {
    const n = await buyTestNumber(third, '214');
    const listed = await third.client.post(base(third), { number_id: n.id, price_cents: 5_000 });
    expect(listed.status).toBe(200);
    const id = listed.body.data.id;
    expect((await buyer.client.get(`${base(buyer)}/${id}`)).status).toBe(200);
    const removed = await third.client.post(`/api/numbers/${n.id}/remove`, {});
    expect(removed.status, JSON.stringify(removed.body)).toBeLessThan(300);
    await eventually(async () => (await third.client.get(`${base(third)}/${id}`)).body.data?.state === 'withdrawn');
    expect((await buyer.client.get(`${base(buyer)}/${id}`)).status).toBe(404);
  });

  it('sells a number once when two companies buy it at the same moment', async () => {
    const a = await createAccount(s);
    const b = await createAccount(s);
    await saveCard(a, '4242424242424242');
    await saveCard(b, '4242424242424242');
    const n = await buyTestNumber(seller, '469');
    const listed = await seller.client.post(base(seller), { number_id: n.id, price_cents: 2_000 });
    const id = listed.body.data.id;
    const [ra, rb] = await Promise.all([
      a.client.post(`${base(a)}/${id}/purchase`, { expected_price_cents: 2_000 }),
      b.client.post(`${base(b)}/${id}/purchase`, { expected_price_cents: 2_000 }),
    ]);
    expect([ra.status, rb.status].sort()).toEqual([200, 422]);
    const loser = ra.status === 422 ? a : b;
    const invoices = (await loser.client.get(`/api/company/${loser.companyId}/invoices`)).body.data;
    expect(invoices.filter((i: { kind: string; status: string }) => i.kind === 'purchase' && i.status === 'paid')).toHaveLength(0);
  });
});
