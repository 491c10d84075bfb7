/**
 * Accounts in the browser (docs/accounts.md): the owner invites a user with the role `user`; the
 * invitation e-mail is read in the development outbox by an operator (docs/auth.md "Operators":
 * the flag is set in the database by the person who runs the install, as done here); the invitee
 * sets a name and password from the link, signs in and sees only what the role allows. Then an
 * organization with two accounts gets the invitee as org administrator, who switches between the
 * two accounts with the switcher's search.
 */
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import pg from 'pg';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, DEMO, signIn } from './helpers';

/** Makes `email` an operator the documented way: an UPDATE on the install's embedded PostgreSQL (docs/auth.md). */
async function makeOperator(email: string): Promise<void> {
  // playwright.config.ts puts the server's DATA_DIR at <tmp>/switchboard-e2e-<runner pid>; workers are the runner's children.
  const dataDir = process.env.E2E_DATA_DIR ?? path.join(os.tmpdir(), `switchboard-e2e-${process.ppid}`);
  const pidFile = path.join(dataDir, 'postgres', 'postmaster.pid');
  const port = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[3]);
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password: 'postgres', database: 'switchboard' });
  await client.connect();
  try {
    await client.query('update users set is_operator = true where lower(email) = lower($1)', [email]);
  } finally {
    await client.end();
  }
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login/);
}

function mainNav(page: Page) {
  return page.getByRole('navigation', { name: 'Main' });
}

/**
 * What a member with the role `user` sees (docs/permissions.md): the inbox, calls, contacts one by one and the numbers
 * (read); no Administration section, no purchases, number setup, campaigns, reports, imports or integrations, and a
 * plain refusal on an address typed by hand instead of a screen of 403s.
 */
async function expectUserRoleScreens(page: Page): Promise<void> {
  const nav = mainNav(page);
  for (const name of ['Inbox', 'Voicemail', 'Contacts', 'Groups', 'Numbers', 'Settings']) {
    // A link's name may end with its unread badge ("Inbox 1 unread").
    await expect(nav.getByRole('link', { name: new RegExp(`^${name}( \\d+ unread)?$`) })).toBeVisible();
  }
  await expect(nav.getByText('Administration', { exact: true })).toHaveCount(0);
  for (const name of [
    'Users',
    'Organizations',
    'API keys',
    'Webhooks',
    'Audit log',
    'General settings',
    'Campaigns',
    'Dashboard',
    'Activity',
    'Tracking pools',
    'Custom fields',
    'Alerts',
  ]) {
    await expect(nav.getByRole('link', { name, exact: true })).toHaveCount(0);
  }

  // Numbers: listed and viewable, but not bought, selected for bulk changes, released or configured.
  await page.goto('/numbers');
  await expect(page.getByTestId('number-row').first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Buy a number' })).toHaveCount(0);
  await expect(page.getByRole('checkbox', { name: 'Select all numbers on this page' })).toHaveCount(0);
  await page.getByTestId('number-row').first().getByRole('link', { name: 'View routing' }).click();
  await expect(page.getByTestId('number-read-only')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Release' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Swap for a new number' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Save', exact: true })).toBeDisabled();

  // Contacts: one by one yes, imports no.
  await page.goto('/contacts');
  await expect(page.getByRole('heading', { name: 'Contacts', level: 1 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'New contact' }).first()).toBeVisible();
  await expect(page.getByRole('button', { name: 'Import' })).toHaveCount(0);

  // Screens of other roles, reached by address: the refusal, no create buttons.
  for (const [url, title] of [
    ['/campaigns', 'Campaigns'],
    ['/campaigns/new', 'New campaign'],
    ['/webhooks', 'Webhooks'],
    ['/api-keys', 'API keys'],
    ['/tracking', 'Tracking pools'],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
    await expect(page.getByText('Not available with your role')).toBeVisible();
  }
  await expect(page.getByRole('button', { name: /New campaign|New pool|Add endpoint|Create API key/ })).toHaveCount(0);
}

async function newPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext();
  return context.newPage();
}

test('the owner invites a user; the invitee joins from the outbox e-mail and sees only what the role allows; an org administrator switches accounts', async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const stamp = Date.now().toString(36);
  const invitee = { email: `invitee-${stamp}@example.test`, password: 'invitee-password-2026' };
  await makeOperator(DEMO.email);

  // The owner invites someone as a User.
  await signIn(page);
  await page.goto('/users');
  await expect(page.getByRole('heading', { name: 'Users', level: 1 })).toBeVisible();
  await expect(page.getByTestId(`user-row-${DEMO.email}`)).toBeVisible();
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a user' });
  await dialog.getByLabel('E-mail').fill(invitee.email);
  // The role offered first is the least privileged working role, User.
  await expect(dialog.getByLabel('Role')).toHaveValue(/^User —/);
  // One of the company's numbers rings them: a `user` sees and works only the numbers assigned to them.
  await dialog.getByLabel('Numbers that ring them').click();
  await page.getByRole('option').first().click();
  await dialog.getByLabel('E-mail').click();
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation was successfully sent')).toBeVisible();
  // No mail server: the sent step hands over the link (docs/accounts.md "Invitations").
  await page.getByRole('dialog', { name: 'Invitation sent' }).getByRole('button', { name: 'Done' }).click();
  await expect(page.getByTestId(`invitation-row-${invitee.email}`)).toBeVisible();
  await page.getByRole('button', { name: `Resend the invitation to ${invitee.email}` }).click();
  await expect(page.getByText('Invitation was successfully resent')).toBeVisible();

  // The invitation e-mail in the development outbox (the newest link; the first one stopped working on resend).
  await page.goto('/outbox');
  const mail = page.getByTestId('outbox-mail').filter({ hasText: invitee.email }).first();
  await expect(mail).toBeVisible();
  const link = await mail
    .getByRole('link', { name: /accept-invitation/ })
    .first()
    .getAttribute('href');
  expect(link).toContain('/accept-invitation?token=');

  // The invitee sets a name and a password once and lands signed in.
  const guest = await newPage(browser);
  await guest.goto(link!);
  await expect(guest.getByTestId('invitation-summary')).toContainText('as User');
  await guest.getByLabel('First name').fill('Ivy');
  await guest.getByLabel('Last name').fill('Invitee');
  await guest.getByLabel(/^Choose a password/).fill(invitee.password);
  await guest.getByRole('button', { name: /^Join / }).click();
  await expect(guest.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // The link worked once.
  await guest.goto(link!);
  await expect(guest.getByTestId('invitation-error')).toBeVisible();
  // Their password works: signed out first (a signed-in person on /login goes on to the app, leaving the form).
  await guest.context().clearCookies();
  await signIn(guest, invitee.email, invitee.password);
  await expectUserRoleScreens(guest);
  // A `user` works the inbox but does not manage users.
  await guest.goto('/users');
  await expect(guest.getByText('Not available with your role')).toBeVisible();

  // The owner sees the new user with the role User.
  await page.goto('/users');
  await expect(page.getByRole('combobox', { name: 'Role of Ivy Invitee' })).toHaveValue('User');

  // An organization with two accounts; the invitee becomes its administrator.
  await page.goto('/organizations');
  await page.getByRole('button', { name: 'New organization' }).click();
  await page.getByRole('dialog', { name: 'New organization' }).getByLabel('Name').fill(`Agency ${stamp}`);
  await page.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(page.getByRole('heading', { name: `Agency ${stamp}`, level: 1 })).toBeVisible();
  for (const name of [`North Clinic ${stamp}`, `South Clinic ${stamp}`]) {
    await page.getByRole('button', { name: 'New account' }).click();
    const d = page.getByRole('dialog', { name: 'New account' });
    await d.getByLabel('Account name').fill(name);
    await d.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByTestId(`account-row-${name}`)).toBeVisible();
  }
  await page.getByRole('tab', { name: /Administrators/ }).click();
  await page.getByLabel('Add an administrator').fill(invitee.email);
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByTestId(`admin-row-${invitee.email}`)).toBeVisible();

  // The org administrator finds both accounts with the switcher's search and switches between them.
  await guest.reload();
  const switcher = guest.getByRole('combobox', { name: 'Company', exact: true });
  for (const name of [`North Clinic ${stamp}`, `South Clinic ${stamp}`]) {
    await switcher.click();
    await switcher.fill(name.split(' ')[0]!);
    await guest.getByRole('option', { name }).click();
    await expect(switcher).toHaveValue(name);
    // An administrator there: the users of the account are theirs to manage, and the navigation says so.
    await expect(mainNav(guest).getByRole('link', { name: 'Users', exact: true })).toBeVisible();
    await guest.goto('/users');
    await expect(guest.getByTestId(`user-row-${invitee.email}`)).toBeVisible();
    await expect(guest.getByTestId(`user-row-${DEMO.email}`)).toBeVisible();
    await expect(guest.getByRole('button', { name: 'Invite user' })).toBeVisible();
  }
  // Back in the account where the invitee is a plain `user`: the navigation and screens follow that role again.
  await switcher.click();
  await switcher.fill('Acme');
  await guest.getByRole('option', { name: 'Acme Plumbing' }).click();
  await expect(switcher).toHaveValue('Acme Plumbing');
  await expect(mainNav(guest).getByText('Administration', { exact: true })).toHaveCount(0);
  await guest.goto('/numbers');
  await expect(guest.getByRole('button', { name: 'Buy a number' })).toHaveCount(0);
  await signOut(guest);

  // At phone width the screens fit (tables scroll inside their card, not the page).
  await page.setViewportSize({ width: 390, height: 844 });
  for (const url of ['/users', '/organizations']) {
    await page.goto(url);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }
  await page.getByRole('link', { name: new RegExp(`^Agency ${stamp}`) }).click();
  await expect(page.getByTestId(`account-row-North Clinic ${stamp}`)).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: test.info().outputPath('organization-phone.png') });
});

test('the owner deletes an account without numbers from Settings, typing its name to confirm', async ({ page }) => {
  test.setTimeout(120_000);
  const name = `Spare Desk ${Date.now().toString(36)}`;
  await signIn(page);
  // An empty account of a business unit of the demo owner (the creator is its owner).
  const units = await api(page, 'get', '/api/business-units');
  let unitId = units.body?.data?.[0]?.id as number | undefined;
  if (!unitId) unitId = (await api(page, 'post', '/api/business-units', { name: 'Spare unit' })).body.data.id as number;
  const created = await api(page, 'post', `/api/business-units/${unitId}/companies`, { company_info: { name, business_unit_id: unitId, skip_number: true } });
  expect(created.status).toBe(201);
  const companyId = created.body.data.id as number;

  await page.reload();
  const switcher = page.getByRole('combobox', { name: 'Company', exact: true });
  await switcher.click();
  await switcher.fill(name);
  await page.getByRole('option', { name }).click();
  await expect(switcher).toHaveValue(name);

  await page.goto('/settings');
  const card = page.getByTestId('delete-account');
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: 'Delete account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this account' });
  const confirm = dialog.getByRole('button', { name: 'Delete this account' });
  // Nothing happens until the name is typed exactly.
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Account name').fill(name.toLowerCase());
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel('Account name').fill(name);
  await expect(confirm).toBeEnabled();
  await confirm.click();
  await expect(page.getByText('Account was successfully deleted')).toBeVisible();
  await expect(dialog).toBeHidden();
  // The account is gone from the person's companies and the switcher shows another one.
  const companies = await api(page, 'get', '/api/companies');
  expect(companies.body.data.map((c: { id: number }) => c.id)).not.toContain(companyId);
  await expect(switcher).not.toHaveValue(name);
});
