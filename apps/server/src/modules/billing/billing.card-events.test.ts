/**
 * The gateway's payment-method webhooks (docs/billing.md "Routes"): `payment_method.automatically_updated` (the card
 * updater's new expiry and last four digits) updates the card on file, `payment_method.detached` removes it; each
 * signed (a bad signature is 400) and applied once per event id; another account's card is untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../../test/fixtures.js';
import { startTestServer, type TestServer } from '../../../test/harness.js';
import { SANDBOX_BASE, SANDBOX_PUBLISHABLE_KEY, SANDBOX_WEBHOOK_SECRET, signSandboxWebhook } from '../../platform/payments/index.js';
import { billingRepository } from './billing.repository.js';

let s: TestServer;
let acc: Account;
let other: Account;
const year = new Date().getUTCFullYear() + 2;

beforeAll(async () => {
  s = await startTestServer();
  acc = await createAccount(s);
  other = await createAccount(s);
}, 180_000);

afterAll(async () => {
  await s?.close();
});

async function saveCard(a: Account, number: string): Promise<string> {
  const res = await fetch(`${s.url}${SANDBOX_BASE}/payment_methods`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${SANDBOX_PUBLISHABLE_KEY}` },
    body: JSON.stringify({ number, cvc: '123', exp_month: 12, exp_year: year }),
  });
  const pm = (await res.json()) as { id: string };
  const saved = await a.client.post(`/api/company/${a.companyId}/billing`, { chargify_token: pm.id });
  expect(saved.status, JSON.stringify(saved.body)).toBe(200);
  return pm.id;
}

function post(body: string, secret = SANDBOX_WEBHOOK_SECRET) {
  return fetch(`${s.url}/webhooks/stripe`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signSandboxWebhook(body, secret) },
    body,
  });
}

const card = async (a: Account) => (await a.client.get(`/api/company/${a.companyId}/billing`)).body.data.card;

describe('payment-method webhooks', () => {
  it('updates the card from the card updater and removes it when detached, once per event', async () => {
    const pm = await saveCard(acc, '4242424242424242');
    const otherPm = await saveCard(other, '4242424242424242');
    expect(await card(acc)).toMatchObject({ last4: '4242', expMonth: 12, expYear: year });

    const updated = JSON.stringify({
      id: 'evt_pm_updated_1',
      type: 'payment_method.automatically_updated',
      data: { object: { id: pm, object: 'payment_method', card: { brand: 'visa', last4: '1881', exp_month: 3, exp_year: year + 3 } } },
    });
    expect((await post(updated, 'whsec_wrong')).status).toBe(400);
    expect(await card(acc)).toMatchObject({ last4: '4242' });
    expect((await post(updated)).status).toBe(200);
    expect(await card(acc)).toMatchObject({ last4: '1881', expMonth: 3, expYear: year + 3 });
    expect(await card(other)).toMatchObject({ last4: '4242', expMonth: 12 });

    // A replay of the same event id changes nothing even after a later change.
    await billingRepository.updateAccount(s.ctx.db, acc.companyId, { card_last4: '0005' });
    expect((await post(updated)).status).toBe(200);
    expect(await card(acc)).toMatchObject({ last4: '0005' });

    const detached = JSON.stringify({ id: 'evt_pm_detached_1', type: 'payment_method.detached', data: { object: { id: pm, object: 'payment_method' } } });
    expect((await post(detached)).status).toBe(200);
    expect(await card(acc)).toBeNull();
    expect((await billingRepository.account(s.ctx.db, acc.companyId))?.payment_method_id).toBeNull();
    expect((await billingRepository.account(s.ctx.db, other.companyId))?.payment_method_id).toBe(otherPm);
  });
});
