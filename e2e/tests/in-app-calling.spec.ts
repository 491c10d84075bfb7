/**
 * In-app calling in the browser (spec 002 "In-app calling", docs/telephony.md "In-app calling"): two signed-in browsers, both Active, ring on
 * a simulator call to an in-app-calling number; one answers (Connected with a timer), the other
 * stops ringing. A second user created through the API (own company) is Active too and must not
 * ring: the call belongs to the demo company. An answered call is muted and transferred to a number from the
 * softphone card (docs/calling.md "Transfer of an answered inbound call").
 *
 * There is no invitation API yet, so both ringing browsers are sessions of the demo user (two
 * browser contexts = two separate sign-ins); the server test covers two different users.
 */
import crypto from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { signIn, api, buyNumberWith } from './helpers';

async function goActive(page: Page) {
  const sw = page.getByTestId('softphone-status');
  await expect(sw).toBeVisible();
  await page.getByRole('switch', { name: 'In-app calling' }).check({ force: true });
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
}

test('a simulator call rings two active browsers; one answers, the other stops ringing', async ({ browser }) => {
  const ctxA = await browser.newContext();
  const ctxB = await browser.newContext();
  const ctxC = await browser.newContext();
  const a = await ctxA.newPage();
  const b = await ctxB.newPage();
  const c = await ctxC.newPage();

  // A second user, created through the public signup API (owner of their own company).
  const email = `softphone+${crypto.randomBytes(4).toString('hex')}@example.test`;
  await c.request.get('/api/csrf-cookie');
  const signup = await api(c, 'post', '/api/client/signup/create', {
    first_name: 'Second',
    last_name: 'User',
    email,
    password: 'second-password-2026',
    company_name: 'Other Co',
  });
  expect(signup.status, JSON.stringify(signup.body)).toBe(201);

  await signIn(a);
  await signIn(b);
  // The signup already signed the second user in (session cookie in context C).
  await c.goto('/inbox');
  await goActive(a);
  await goActive(b);
  await goActive(c);

  // A fresh demo-company number that rings in-app users.
  const bought = await buyNumberWith(a, '415', {
    label: 'Softphone line',
    routes: [{ type: 'in-app-calling', voicemail_enabled: true, timeout: 30 }],
  });

  // The outside caller (the Phone simulator's API); it waits for the browser answer.
  const call = api(a, 'post', '/api/simulator/calls', { from: '+13125550177', to: bought.number, talk_seconds: 5 });

  const cardA = a.getByTestId('softphone-card');
  const cardB = b.getByTestId('softphone-card');
  await expect(cardA).toContainText('Incoming call');
  await expect(cardB).toContainText('Incoming call');
  await expect(cardA).toContainText('(312) 555-0177');
  await expect(cardB).toContainText('Softphone line');

  await cardA.getByRole('button', { name: 'Answer' }).click();
  await expect(cardA).toContainText('Connected');
  await expect(a.getByTestId('softphone-timer')).toBeVisible();
  await expect(cardB).toBeHidden();
  await expect(c.getByTestId('softphone-card')).toBeHidden();

  const done = await call;
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body.status).toBe('completed');
  await Promise.all([ctxA.close(), ctxB.close(), ctxC.close()]);
});

test('an answered inbound call is muted, then transferred to a number; the caller is dialed there', async ({ page }) => {
  await signIn(page);
  await goActive(page);
  const bought = await buyNumberWith(page, '415', { label: 'Reception', routes: [{ type: 'in-app-calling', timeout: 30 }] });

  const call = api(page, 'post', '/api/simulator/calls', { from: '+13125550188', to: bought.number, talk_seconds: 60 });
  const card = page.getByTestId('softphone-card');
  await expect(card).toContainText('Incoming call');
  await card.getByRole('button', { name: 'Answer' }).click();
  await expect(card).toContainText('Connected');

  await card.getByRole('button', { name: 'Mute' }).click();
  await expect(card.getByRole('button', { name: 'Unmute' })).toHaveAttribute('aria-pressed', 'true');

  await card.getByRole('button', { name: 'Transfer', exact: true }).click();
  const picker = card.getByTestId('dialer-transfer');
  await picker.getByText('A number', { exact: true }).click();
  await picker.getByLabel('Number to transfer to').fill('(646) 555-0191');
  await picker.getByRole('button', { name: 'Transfer…' }).click();
  await expect(picker).toContainText('Transfer this call to (646) 555-0191?');
  await picker.getByRole('button', { name: 'Confirm transfer' }).click();
  await expect(card).toContainText('Call transferred');

  const done = await call;
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  const log = done.body.log as Array<{ step: string; detail: string }>;
  expect(log.some((l) => l.step === 'transfer')).toBe(true);
  expect(log.some((l) => l.detail.includes('+16465550191'))).toBe(true);
});
