/**
 * Issue 23 items 8, 10 and 11 in the browser, as a new customer meets them (desktop and phone size):
 * - billing figures: the price of a number beyond the plan's allowance in the buy dialog, extra numbers explained,
 *   an add-on used in the product shown as on, the upcoming invoice during the trial, and a plan change read at once;
 * - invitations: inviting an Owner warns first; the invitation link alone shows the invitation and its e-mail without
 *   an account, takes one password and lands signed in; a cancelled link shows one message;
 * - campaigns and 10DLC: an unregistered number is marked in the campaign's number picker with the fix linked, a send
 *   from it stops before the confirmation, the draft is kept on the way to SMS verification and back; the 10DLC form
 *   is validated before the fee confirmation, naming fields by their labels.
 */
import crypto from 'node:crypto';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { api, choose, signIn } from './helpers';

const PHONE = { width: 390, height: 844 };

/** A fresh customer: public sign-up through the API in a new browser context, signed in. */
async function newCustomer(browser: Browser, company: string): Promise<{ page: Page; companyId: number; email: string }> {
  const page = await (await browser.newContext()).newPage();
  await page.request.get('/api/csrf-cookie');
  const email = `owner+${crypto.randomBytes(4).toString('hex')}@example.test`;
  const r = await api(page, 'post', '/api/client/signup/create', {
    first_name: 'Olive',
    last_name: 'Owner',
    email,
    password: 'owner-password-2026',
    company_name: company,
  });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return { page, companyId: r.body.company.id as number, email };
}

async function buyNumbers(page: Page, companyId: number, count: number, areaCode = '312'): Promise<number[]> {
  const found = await api(page, 'get', `/api/numbers/search?type=local&areaCode=${areaCode}&limit=20`);
  const ids: number[] = [];
  for (const pick of found.body.data.slice(0, count)) {
    const bought = await api(page, 'post', '/api/numbers', { company_id: companyId, provider_id: pick.provider_id, number: pick.number });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    ids.push(bought.body.id as number);
  }
  return ids;
}

/** Nothing wider than the viewport (phone size); on failure, the elements that stick out. */
async function noHorizontalScroll(page: Page): Promise<void> {
  // After a viewport change the layout settles first (media-query hooks re-render).
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), { timeout: 5_000 })
    .toBeLessThanOrEqual(1)
    .catch(() => undefined);
  const over = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const over = (e: Element | null) => !!e && e.getBoundingClientRect().right > width + 1;
    // Where it starts: an element sticking out whose parent does not.
    const wide = [...document.querySelectorAll('body *')]
      .filter((e) => over(e) && !over(e.parentElement))
      .slice(0, 5)
      .map(
        (e) =>
          `${e.tagName.toLowerCase()}.${[...e.classList].slice(-2).join('.')} w=${Math.round(e.getBoundingClientRect().width)} ${(e.textContent ?? '').slice(0, 40)}`,
      );
    return { by: document.documentElement.scrollWidth - width, wide };
  });
  expect(over.by, over.wide.join(' | ')).toBeLessThanOrEqual(1);
}

test('billing figures: number price, extra numbers, add-ons in use, upcoming invoice, a plan change at once', async ({ browser }) => {
  test.setTimeout(180_000);
  const { page, companyId } = await newCustomer(browser, 'Figures Plumbing');
  // Billing opened once (the 14-day Starter trial: 3 numbers included, $3.00 a month per extra number).
  expect((await api(page, 'get', `/api/company/${companyId}/subscription`)).status).toBe(200);
  const [first] = await buyNumbers(page, companyId, 3);
  expect((await api(page, 'put', `/api/numbers/${first}`, { record: true })).status).toBe(200);

  // Buying a 4th number: the dialog says what it costs, not "included".
  await page.goto('/numbers');
  await page.getByRole('button', { name: 'Buy a number' }).first().click();
  await page.getByLabel('Area code').fill('415');
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByTestId('number-result').first().getByRole('button', { name: 'Buy', exact: true }).click();
  const price = page.getByTestId('buy-confirmation').getByTestId('buy-price');
  await expect(price).toContainText('Price: $3.00 a month');
  await expect(price).toContainText('3 included numbers are in use');
  await expect(price).toContainText('$3.00 a month each');
  await expect(price).toContainText('from the end of your trial');
  await page
    .getByTestId('buy-confirmation')
    .getByRole('button', { name: /^Buy \(/ })
    .click();
  await expect(page.getByTestId('number-row')).toHaveCount(4);

  await page.goto('/billing');
  await expect(page.getByRole('heading', { name: 'Plan: Starter' })).toBeVisible();
  // 4 held, 3 included: one extra, explained, and what it comes to if kept to the period end.
  await expect(page.getByTestId('numbers-note')).toContainText('1 over the 3 included, $3.00 a month each, billed by the days held.');
  await expect(page.getByTestId('numbers-note')).toContainText('1 × $3.00 = $3.00 (not billed during the trial)');
  // Recording is on for a number: the add-on is on, and says why it cannot be switched off here.
  const addOns = page.getByRole('region', { name: 'Add-ons' });
  const recording = addOns.getByRole('switch', { name: /Call recording/ });
  await expect(recording).toBeChecked();
  await expect(recording).toBeDisabled();
  await expect(addOns).toContainText('In use: Recording is on for 1 number.');
  // The invoice the trial's end creates: Starter and the recording add-on.
  const upcoming = page.getByTestId('upcoming-invoice');
  await expect(upcoming).toContainText('Upcoming invoice on');
  await expect(upcoming).toContainText('$39.00');
  await expect(upcoming.getByRole('table', { name: 'Upcoming invoice' })).toContainText('Call recording');

  // A plan change shows the new plan's allowances at once (no reload) and never offers the current plan.
  await page.getByRole('combobox', { name: 'Change plan to' }).click();
  await page.getByRole('option', { name: /^Premium — \$79\.00\/month$/ }).click();
  await page.getByRole('dialog', { name: 'Change plan' }).getByRole('button', { name: 'Confirm change' }).click();
  await expect(page.getByRole('heading', { name: 'Plan: Premium' })).toBeVisible({ timeout: 3_000 });
  const usage = page.getByRole('region', { name: 'Usage this period' });
  await expect(usage).toContainText('4 / 10', { timeout: 3_000 });
  // Offers: Premium yearly (same family) and Deluxe yearly; never the current Premium.
  await expect(page.getByRole('button', { name: 'Switch to yearly' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Upgrade to Deluxe (yearly)' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Upgrade to Premium/ })).toHaveCount(0);

  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('upcoming-invoice')).toBeVisible();
  await noHorizontalScroll(page);
  await page.close();
});

test('invitations: an Owner invitation warns; the link alone shows it and its e-mail, one password, signed in; a cancelled link says so once', async ({
  page,
  browser,
}) => {
  test.setTimeout(150_000);
  const email = `partner+${crypto.randomBytes(4).toString('hex')}@example.test`;
  await signIn(page);
  await page.goto('/users');
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite a user' });
  await dialog.getByLabel('E-mail').fill(email);
  await dialog.getByLabel('Role').click();
  await page.getByRole('option', { name: /^Owner —/ }).click();
  await expect(dialog.getByTestId('owner-warning')).toContainText('An owner can do everything');
  await expect(dialog.getByRole('button', { name: 'Invite as Owner' })).toBeDisabled();
  await dialog.getByRole('checkbox', { name: 'Yes, this person should be an owner' }).check();
  await dialog.getByRole('button', { name: 'Invite as Owner' }).click();
  // No mail server: the inviter gets the link to hand over.
  const sent = page.getByRole('dialog', { name: 'Invitation sent' });
  const link = await sent.getByRole('link', { name: /accept-invitation/ }).getAttribute('href');
  expect(link).toContain('/accept-invitation?token=');
  await sent.getByRole('button', { name: 'Done' }).click();

  // The invitee, with no account, on a phone.
  const guest = await (await browser.newContext({ viewport: PHONE })).newPage();
  await guest.goto(link!);
  await expect(guest.getByTestId('invitation-summary')).toHaveText(/^.+ invited you to .+ as Owner\.$/);
  await guest.getByRole('button', { name: 'The invitation e-mail (development outbox)' }).click();
  await expect(guest.getByTestId('invitation-mail')).toContainText('as Owner');
  await expect(guest.getByTestId('invitation-mail')).toContainText(`To: ${email}`);
  await expect(guest.getByLabel('Confirm password')).toHaveCount(0);
  await guest.getByLabel('First name').fill('Pat');
  await guest.getByLabel('Last name').fill('Partner');
  await guest.getByLabel(/^Choose a password/).fill('partner-password-2026');
  await noHorizontalScroll(guest);
  await guest.getByRole('button', { name: /^Join / }).click();
  // Signed in, in the account, with no "You can now sign in".
  await expect(guest.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(guest).not.toHaveURL(/accept-invitation|login/);
  await expect(guest.getByText('You can now sign in')).toHaveCount(0);
  await expect(guest.getByText(/^Welcome to .+\. You are signed in\.$/)).toBeVisible();

  // A cancelled invitation: one message.
  const other = `gone+${crypto.randomBytes(4).toString('hex')}@example.test`;
  const companyId = ((await api(page, 'get', '/api/companies')).body.data ?? (await api(page, 'get', '/api/companies')).body)[0].id as number;
  const invited = await api(page, 'post', `/api/companies/${companyId}/invitations`, { email: other, role: 'user' });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  expect((await api(page, 'delete', `/api/companies/${companyId}/invitations/${invited.body.data.id}`)).status).toBe(200);
  const stranger = await (await browser.newContext()).newPage();
  await stranger.goto(new URL(invited.body.invitation_url).pathname + new URL(invited.body.invitation_url).search);
  await expect(stranger.getByTestId('invitation-error')).toContainText('This invitation was cancelled. Ask the person who invited you for a new one.');
  await expect(stranger.getByRole('alert')).toHaveCount(1);
});

test('campaigns and 10DLC: an unregistered number is marked before sending, the draft survives the fix; the 10DLC form is validated before its fees', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  const companies = await api(page, 'get', '/api/companies');
  const companyId = (companies.body.data ?? companies.body)[0].id as number;
  const [id] = await buyNumbers(page, companyId, 1, '773');
  const national = (await api(page, 'get', `/api/numbers/${id}`)).body.national_number as string;
  const title = `Spring tune-up ${Date.now()}`;
  const group = `Tune-up list ${Date.now()}`;
  expect((await api(page, 'post', '/api/groups', { company_id: companyId, name: group })).status).toBe(201);

  await page.goto('/campaigns/new');
  await page.getByLabel('Title').fill(title);
  await page.getByRole('textbox', { name: 'Message' }).fill('Spring tune-up: 10% off this week.');
  await page.getByRole('combobox', { name: 'Groups', exact: true }).click();
  await page.getByRole('option', { name: new RegExp(group) }).click();
  await page.keyboard.press('Escape');
  await page
    .getByRole('textbox', { name: 'Send from number' })
    .or(page.getByRole('combobox', { name: 'Send from number' }))
    .first()
    .click();
  // The picker marks the number that cannot send campaigns.
  const option = page.getByRole('option', { name: new RegExp(`${national.replace(/[()]/g, '\\$&')}.*\\(not registered for campaigns\\)`) });
  await expect(option).toBeVisible();
  await option.click();
  const warning = page.getByTestId('number-not-registered');
  await expect(warning).toContainText('is not on an approved SMS verification campaign');
  const fix = warning.getByRole('link', { name: /Register it under SMS verification/ });
  await expect(fix).toHaveAttribute('href', '/sms-verification');
  await expect(fix).toHaveAttribute('target', '_blank');
  // Send stops before the confirmation.
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Send this campaign?' })).toHaveCount(0);
  await expect(page.getByText('/sms-verification', { exact: false })).toHaveCount(0);

  // Save the draft and go; SMS verification leads back to it, unchanged.
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: test.info().outputPath('campaign-editor-phone.png') });
  await noHorizontalScroll(page);
  await warning.getByRole('button', { name: 'Save draft, then register' }).click();
  await expect(page).toHaveURL(/\/sms-verification\?campaign_draft=\d+$/);
  await page.getByTestId('back-to-draft').getByRole('link', { name: 'Back to your campaign draft' }).click();
  await expect(page.getByLabel('Title')).toHaveValue(title);
  await expect(page.getByTestId('number-not-registered')).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 800 });

  // 10DLC: a new account of the demo's business unit registers; a public company without its stock exchange is
  // refused before the fee confirmation, by field label.
  const units = await api(page, 'get', '/api/business-units');
  const unitId = units.body.data[0].id as number;
  const name = `Tune-up Motors ${Date.now()}`;
  const created = await api(page, 'post', `/api/business-units/${unitId}/companies`, { company_info: { name, business_unit_id: unitId, skip_number: true } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await buyNumbers(page, created.body.data.id as number, 1, '312');
  await page.reload();
  const switcher = page.getByRole('combobox', { name: 'Company', exact: true });
  await switcher.click();
  await switcher.fill('Tune-up Motors');
  await page.getByRole('option', { name }).click();
  await page.goto('/sms-verification');
  await page.getByRole('button', { name: 'Start registration' }).click();
  await choose(page, 'Company type', 'Publicly traded');
  await page.getByRole('textbox', { name: 'Legal company name', exact: true }).fill('Tune-up Motors Inc');
  await page.getByRole('combobox', { name: 'Add numbers' }).click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('The SMS verification draft was saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  const incomplete = page.getByTestId('sms-incomplete');
  await expect(incomplete).toContainText('Stock exchange');
  await expect(incomplete).toContainText('EIN (tax id)');
  await expect(incomplete).not.toContainText('stock_exchange');
  await expect(incomplete).not.toContainText('brand ');
  await expect(page.getByRole('dialog', { name: 'Submit SMS verification?' })).toHaveCount(0);
});
