/**
 * SMS verification in the browser (docs/sms-verification.md "Screen"), sandbox registry with its default timing
 * (brand reviewed 20 s after the submit, the local side 30 s after): the demo owner opens a new account of the demo's
 * business unit (the demo company is registered by the seed), fills the brand and campaign forms, adds its number, saves the draft, submits after the fees confirmation (the spec's success message), and
 * watches the brand turn Verified and the local side Approved live, without reloading.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { api, choose, signIn } from './helpers';

test('sms verification: submit a brand and campaign and watch the status change live', async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page);
  // The demo company is registered by the demo seed: a new account of the demo's business unit, with a number of its
  // own, is the company that registers here.
  const units = await api(page, 'get', '/api/business-units');
  const unitId = units.body.data[0].id as number;
  const name = `Demo Motors ${Date.now()}`;
  const created = await api(page, 'post', `/api/business-units/${unitId}/companies`, { company_info: { name, business_unit_id: unitId, skip_number: true } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const found = await api(page, 'get', '/api/numbers/search?type=local&areaCode=312&limit=10');
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const bought = await api(page, 'post', '/api/numbers', { company_id: created.body.data.id, provider_id: pick.provider_id, number: pick.number });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  await page.reload();
  const switcher = page.getByRole('combobox', { name: 'Company', exact: true });
  await switcher.click();
  await switcher.fill('Demo Motors');
  await page.getByRole('option', { name }).click();
  await expect(switcher).toHaveValue(name);

  await page.goto('/sms-verification');
  await expect(page.getByRole('heading', { name: 'SMS verification', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Start registration' }).click();
  await expect(page.getByRole('heading', { name: 'Brand' })).toBeVisible();

  await choose(page, 'Company type', 'Private');
  await choose(page, 'Industry', 'Retail');
  const fill = async (name: string, value: string) => page.getByRole('textbox', { name, exact: true }).fill(value);
  await fill('Legal company name', 'Demo Motors LLC');
  await fill('Brand name (DBA)', 'Demo Motors');
  await fill('EIN (tax id)', '12-3456780');
  await fill('Website', 'https://demomotors.example');
  await fill('Contact e-mail', 'compliance@demomotors.example');
  await fill('Contact phone', '+13125550100');
  await fill('Street', '100 W Madison St');
  await fill('City', 'Chicago');
  await fill('State', 'IL');
  await fill('ZIP code', '60602');
  await fill('Contact first name', 'Dana');
  await fill('Contact last name', 'Reyes');

  await choose(page, 'Use case', 'Customer care');
  await choose(page, 'Monthly messages', 'Up to 10,000');
  await fill('Campaign description', 'Demo Motors answers service questions and sends appointment reminders to customers who asked for them.');
  await fill('Sample message 1', 'Demo Motors: your car is ready for pick-up. Reply STOP to opt out.');
  await fill('Sample message 2', 'Demo Motors: reminder, your service appointment is tomorrow at 9am.');
  await page.getByRole('checkbox', { name: 'Point of sale' }).check();
  await fill('Point of sale: how a person agrees to receive texts', 'At the service desk customers tick "I agree to receive text messages from Demo Motors".');
  await fill('Opt-out message', 'You are unsubscribed from Demo Motors texts. Reply START to resubscribe.');
  await fill('Help message', 'Demo Motors: call (312) 555-0100 for help. Reply STOP to opt out.');

  // A number of the demo company goes on the campaign.
  await page.getByRole('combobox', { name: 'Add numbers' }).click();
  await page.getByRole('option').first().click();
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Numbers on this campaign' })).toContainText('Local (10DLC)');

  await page.getByRole('button', { name: 'Save draft' }).click();
  await expect(page.getByText('The SMS verification draft was saved.')).toBeVisible();
  // Fees due today (docs "Fees"): brand registration $4.00 + campaign vetting $15.00 + 3 months × $1.50 = $23.50.
  await expect(page.getByText('Fees due today:')).toContainText('$23.50');

  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);

  await page.getByRole('button', { name: 'Submit', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Submit SMS verification?' });
  await expect(confirm).toContainText('$23.50');
  await confirm.getByRole('button', { name: 'Submit for review' }).click();
  await expect(page.getByText('Your SMS Verification has been submitted successfully.')).toBeVisible();
  await expect(page.getByLabel('Brand: Pending')).toBeVisible();
  await expect(page.getByLabel('Local (10DLC): Pending')).toBeVisible();

  // The registry decides; the page changes by itself (live `sms verification updated`).
  await expect(page.getByLabel('Brand: Verified')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Vetting score 80')).toBeVisible();
  await expect(page.getByLabel('Local (10DLC): Approved')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('Up to 1 messages/s per number, 2,000/day')).toBeVisible();

  // Phone width: one column, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('heading', { name: 'Numbers on this campaign' })).toBeVisible();
  // The layout settles a moment after the resize (the navigation collapses): polled, not read once.
  await expect
    .poll(() =>
      page.evaluate(() =>
        [...document.querySelectorAll('main *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(0, 8)
          .map(
            (e) =>
              `${e.tagName}.${String((e as HTMLElement).className).slice(0, 60)} ${Math.round(e.getBoundingClientRect().right)} ${(e.textContent ?? '').slice(0, 40)}`,
          ),
      ),
    )
    .toEqual([]);
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
  await page.screenshot({ path: test.info().outputPath('sms-verification-phone.png'), fullPage: true });
});
