/**
 * Issue 3 "Proof" (browser): build a two-extension menu with a business-hours schedule in the
 * routing editor, call it from the simulator inside hours pressing 2 (answered at extension 2, seen
 * in Activity and in the call drawer), then close today's hours with voicemail on and call again
 * (Activity shows a voicemail).
 */
import { expect, type Page } from '@playwright/test';
import { test } from '@playwright/test';
import { buyLocalNumber, choose, chooseHoursOpenNow, signIn } from './helpers';

const SALES = '+13125550111';
const SUPPORT = '+13125550122';

async function callFromSimulator(page: Page, numberOption: string, digits: string) {
  await page.getByRole('link', { name: 'Phone simulator' }).click();
  await choose(page, 'Company number', numberOption);
  await expect(page.getByTestId('forward-outcome')).toHaveCount(2);
  await page.getByLabel('Digits to press').fill(digits);
  await page.getByRole('button', { name: 'Call', exact: true }).click();
  await expect(page.getByTestId('call-result-status')).toBeVisible();
}

test('two-extension menu with business hours: answered at extension 2 inside hours, voicemail when closed', async ({ page }) => {
  await signIn(page);

  // Buy a local number in area code 312.
  const { bought, row } = await buyLocalNumber(page, '312');

  // Routing editor: extension 1 Sales and extension 2 Support, voicemail on, Custom hours open now.
  await row.getByRole('link', { name: 'Edit routing' }).click();
  await expect(page.getByTestId('route-entry')).toHaveCount(1);
  await page.getByLabel('Number label').fill('Menu line');
  const sales = page.getByTestId('route-entry').nth(0);
  await sales.getByLabel('Extension label').fill('Sales');
  await sales.getByRole('button', { name: 'Add forward' }).click();
  await sales.getByLabel('Forward number 1').fill(SALES);
  await sales.getByLabel('Voicemail', { exact: true }).check();

  await page.getByRole('button', { name: 'Add extension' }).click();
  const support = page.getByTestId('route-entry').nth(1);
  await expect(support).toHaveAttribute('data-extension', '2');
  await support.getByLabel('Extension label').fill('Support');
  await support.getByRole('button', { name: 'Add forward' }).click();
  await support.getByLabel('Forward number 1').fill(SUPPORT);
  await support.getByLabel('Voicemail', { exact: true }).check();

  const dayName = await chooseHoursOpenNow(page);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The number has been updated')).toBeVisible();
  await expect(page.getByText('Callers hear a menu')).toContainText('for Support, press 2');

  // Inside hours, press 2: Support's phone answers.
  const option = `${bought} · Menu line`;
  await callFromSimulator(page, option, '2');
  await expect(page.getByTestId('call-result-status')).toContainText(/completed/i);

  await page.getByRole('link', { name: 'Activity' }).click();
  const answered = page.getByTestId('activity-row').filter({ hasText: bought }).first();
  await expect(answered).toContainText(/connected/i);

  // The call drawer: Connected, extension 2, answered at Support's phone.
  const me = (await (await page.request.get('/api/user')).json()) as { companies: Array<{ id: number }> };
  const activity = await page.request.get('/api/activity', { params: { company: me.companies[0]!.id, page: 1, per_page: 20 } });
  const items = ((await activity.json()) as { data: Array<{ id: string; kind: string; to: string }> }).data;
  const callItem = items.find((i) => i.kind === 'call' && i.to.endsWith(bought.replace(/\D/g, '').slice(-7)));
  expect(callItem).toBeTruthy();
  await page.goto(`/calls/${callItem!.id.replace(/^\D+-/, '')}`);
  const drawer = page.getByRole('dialog', { name: 'Call details' });
  await expect(drawer.getByTestId('call-status')).toHaveText('Connected');
  await expect(drawer).toContainText('extension 2');
  await expect(drawer).toContainText(SUPPORT);
  await expect(drawer.getByTestId('call-history')).toContainText('Extension Selected');
  await drawer.getByRole('button', { name: 'Close' }).click();

  // Close today: the same menu now sends callers to voicemail.
  await page.getByRole('link', { name: 'Numbers' }).click();
  await page.getByTestId('number-row').filter({ hasText: bought }).getByRole('link', { name: 'Edit routing' }).click();
  await expect(page.getByTestId('route-entry')).toHaveCount(2);
  await choose(page, `${dayName} open`, 'Closed');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The number has been updated')).toBeVisible();

  await callFromSimulator(page, option, '2');
  await page.getByRole('link', { name: 'Activity' }).click();
  const closed = page.getByTestId('activity-row').filter({ hasText: bought }).first();
  await expect(closed).toContainText(/voicemail/i);
});
