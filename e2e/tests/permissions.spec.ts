/**
 * Read-only screens for a read-only role in the browser (docs/permissions.md "Web"): the owner invites a member with
 * the role `reporting`, who joins from the outbox e-mail and finds reports, the call log, tracking setup, alerts and
 * campaigns to read, with none of the buttons that would end in a 403 (buy, configure, create, send, block, save),
 * and no contacts, inbox or administration at all.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { expect, test, type Page } from '@playwright/test';
import { DEMO, signIn } from './helpers';

/** Makes `email` an operator (reads every mail of the dev outbox) the documented way: an UPDATE on the install's database (docs/auth.md). */
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

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

test('a reporting member reads reports, calls, tracking, alerts and campaigns without a single action button that would be refused', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36);
  const member = { email: `reporter-${stamp}@example.test`, password: 'reporter-password-2026' };
  await makeOperator(DEMO.email);

  await signIn(page);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a user' });
  await dialog.getByLabel('E-mail').fill(member.email);
  await dialog.getByLabel('Role').click();
  await page.getByRole('option', { name: /^Reporting —/ }).click();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation was successfully sent')).toBeVisible();
  await page.getByRole('dialog', { name: 'Invitation sent' }).getByRole('button', { name: 'Done' }).click();

  await page.goto('/outbox');
  const link = await page
    .getByTestId('outbox-mail')
    .filter({ hasText: member.email })
    .first()
    .getByRole('link', { name: /accept-invitation/ })
    .first()
    .getAttribute('href');
  const guest = await (await browser.newContext()).newPage();
  await guest.goto(link!);
  await expect(guest.getByTestId('invitation-summary')).toContainText('as Reporting');
  await guest.getByLabel('First name').fill('Rita');
  await guest.getByLabel('Last name').fill('Reporter');
  await guest.getByLabel(/^Choose a password/).fill(member.password);
  await guest.getByRole('button', { name: /^Join / }).click();
  // Joining signs the member in (docs/accounts.md "Invitations").
  await expect(guest.getByRole('button', { name: 'Sign out' })).toBeVisible();

  // The navigation has reports, tracking, alerts, campaigns and the numbers, nothing else to work.
  const nav = mainNav(guest);
  for (const name of ['Dashboard', 'Call reports', 'Alerts', 'Tracking pools', 'Campaigns', 'Numbers', 'Activity']) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  for (const name of ['Inbox', 'Contacts', 'Groups', 'Tags', 'Users', 'Webhooks', 'API keys', 'Organizations', 'Custom fields']) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
  }
  await expect(nav.getByText('Administration', { exact: true })).toHaveCount(0);

  // Campaigns: the list, without New campaign; the editor by address is refused.
  await guest.goto('/campaigns');
  await expect(guest.getByRole('heading', { name: 'Campaigns', level: 1 })).toBeVisible();
  await expect(guest.getByText('Not available with your role')).toHaveCount(0);
  await expect(guest.getByRole('link', { name: /New campaign/ })).toHaveCount(0);
  await guest.goto('/campaigns/new');
  await expect(guest.getByText('Not available with your role')).toBeVisible();

  // Tracking: pools and sources to read, no New pool, no static numbers; the script settings disabled.
  await guest.goto('/tracking');
  await expect(guest.getByRole('heading', { name: 'Call tracking', level: 1 })).toBeVisible();
  await expect(guest.getByRole('link', { name: 'New pool' })).toHaveCount(0);
  await guest.goto('/tracking/sources');
  await expect(guest.getByRole('heading', { name: 'Sources', level: 1 })).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Static number' })).toHaveCount(0);
  await guest.goto('/tracking/script');
  await expect(guest.getByRole('switch', { name: 'Wait for consent' }).or(guest.getByLabel('Wait for consent'))).toBeDisabled();
  await guest.goto('/tracking/pools/new');
  await expect(guest.getByText('Not available with your role')).toBeVisible();

  // Numbers: read only.
  await guest.goto('/numbers');
  await expect(guest.getByTestId('number-row').first()).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Buy a number' })).toHaveCount(0);
  await guest.getByTestId('number-row').first().getByRole('link', { name: 'View routing' }).click();
  await expect(guest.getByTestId('number-read-only')).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();
  await guest.goto('/schedule');
  await expect(guest.getByRole('button', { name: 'Save schedule' })).toHaveCount(0);
  await guest.goto('/greetings');
  await expect(guest.getByRole('button', { name: 'New greeting' })).toHaveCount(0);

  // Alerts: the monitors are read-only; contacts and the inbox are not this role's.
  await guest.goto('/alerts');
  await expect(guest.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
  await guest.goto('/contacts');
  await expect(guest.getByText('Not available with your role')).toBeVisible();
  await expect(guest.getByRole('button', { name: 'New contact' })).toHaveCount(0);
  await guest.screenshot({ path: test.info().outputPath('reporting-contacts-refused.png') });
});
