/**
 * Admin mode in the browser (spec 000 §3 `isAdmin`, §4 "Admin login"; docs/auth.md "Admin mode"): an operator
 * (flag set in the database the documented way) opens a customer's account by its id; the banner names the operator,
 * the account and the time left; the app sends the admin header while in admin mode; leaving returns to the operator's
 * own session.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { expect, test } from '@playwright/test';
import { DEMO, signIn } from './helpers';

/** Makes `email` an operator: an UPDATE on the install's embedded PostgreSQL (docs/auth.md "Operators"). */
async function makeOperator(email: string): Promise<void> {
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `switchboard-e2e-${process.ppid}`);
  const port = Number(fs.readFileSync(path.join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[3]);
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'switchboard' });
  await client.connect();
  try {
    await client.query('update users set is_operator = true where lower(email) = lower($1)', [email]);
  } finally {
    await client.end();
  }
}

test('an operator opens a customer account in admin mode; the banner shows who, where and the time left; leave returns', async ({ page, browser }) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const customer = { email: `customer-${stamp}@example.test`, password: 'customer-password-2026', company: `Customer ${stamp}` };

  // A customer signs up in their own browser.
  const other = await (await browser.newContext()).newPage();
  await other.goto('/login');
  const csrf = await other.request.get('/api/csrf-cookie');
  expect(csrf.status()).toBe(204);
  const xsrf = (await other.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')!.value;
  const created = await other.request.post('/api/client/signup/create', {
    headers: { 'x-xsrf-token': decodeURIComponent(xsrf) },
    data: { first_name: 'Cora', last_name: 'Customer', email: customer.email, password: customer.password, company_name: customer.company },
  });
  expect(created.status()).toBe(201);
  const companyId = (await created.json()).company.id as number;

  await makeOperator(DEMO.email);
  await signIn(page);
  await page.getByRole('button', { name: 'Open an account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open an account in admin mode' });
  await dialog.getByLabel('Account id').fill(String(companyId));
  await dialog.getByRole('button', { name: 'Open in admin mode' }).click();

  const banner = page.getByRole('region', { name: 'Admin mode' });
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(`is acting in ${customer.company}`);
  await expect(banner).toContainText(/(60|59) minutes left/);
  await page.screenshot({ path: 'test-results/admin-banner.png' });

  // In admin mode the app sends the admin header (spec 000 §7) on every call; the server refuses a state change without it.
  const leaving = page.waitForRequest((r) => r.url().endsWith('/api/sanctum/admin-session/leave'));
  await banner.getByRole('button', { name: 'Leave admin mode' }).click();
  expect((await leaving).headers()['x-admin-mode']).toBe('1');
  await expect(banner).toBeHidden();
  await expect(page.getByRole('button', { name: 'Open an account' })).toBeVisible();
});
