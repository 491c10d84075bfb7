/**
 * The routing editor in the browser (docs/telephony.md "Call flow"): build a two-extension menu with a business-hours schedule in the
 * routing editor, call it from the simulator inside hours pressing 2 (answered at extension 2, seen
 * in Activity and in the call drawer), then close today's hours with voicemail on and call again
 * (Activity shows a voicemail).
 * docs/telephony.md "Routing editor: business hours rule and unsaved changes": business hours that close before they open are refused in the editor (the server's
 * rule, checked live), and unsaved edits ask before leaving (in-app links and tab close).
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
  // A long journey (buy, edit, two calls, Activity, call detail) on a shared, busy machine.
  test.setTimeout(180_000);
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
  await expect(drawer).toContainText('(312) 555-0122');
  await expect(drawer.getByTestId('call-history')).toContainText('The caller pressed 2 (Support)');
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

test('business hours that close before they open are refused, and unsaved edits are not lost without asking', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page);
  const { bought, row } = await buyLocalNumber(page, '773');
  await row.getByRole('link', { name: 'Edit routing' }).click();
  await expect(page.getByTestId('route-entry')).toHaveCount(1);

  // Monday 5:00pm to 9:00am: the editor says so at once, with the rule the server applies.
  await choose(page, 'Schedule', 'Custom');
  await choose(page, 'Monday open', '5:00pm');
  await choose(page, 'Monday close', '9:00am');
  const monday = page.getByTestId('day-mon');
  await expect(monday.getByText('The close time must be after the open time.')).toBeVisible();
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Please fix the highlighted fields.')).toBeVisible();
  await expect(page.getByText('The number has been updated')).toHaveCount(0);

  // Unsaved edits: leaving through the menu asks first; Stay keeps them.
  await page.getByLabel('Number label').fill('Night line');
  await expect(page.getByTestId('editor-save-state')).toContainText('Unsaved changes');
  await page.getByRole('link', { name: 'Numbers', exact: true }).click();
  const prompt = page.getByRole('dialog', { name: 'Leave without saving?' });
  await expect(prompt).toBeVisible();
  await prompt.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(prompt).toBeHidden();
  await expect(page.getByLabel('Number label')).toHaveValue('Night line');
  await expect(monday.getByText('The close time must be after the open time.')).toBeVisible();

  // Fixed hours save; nothing is pending any more, so leaving does not ask.
  await choose(page, 'Monday close', '11:00pm');
  await expect(monday.getByText('The close time must be after the open time.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('The number has been updated')).toBeVisible();
  await expect(page.getByTestId('editor-save-state')).not.toContainText('Unsaved changes');
  await page.getByRole('link', { name: 'Numbers', exact: true }).click();
  await expect(prompt).toHaveCount(0);
  await expect(page.getByTestId('number-row').filter({ hasText: bought })).toContainText('Night line');

  // Leave without saving drops the edit.
  await page.getByTestId('number-row').filter({ hasText: bought }).getByRole('link', { name: 'Edit routing' }).click();
  await page.getByLabel('Number label').fill('Not kept');
  await page.getByRole('link', { name: 'Numbers', exact: true }).click();
  await prompt.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page.getByTestId('number-row').filter({ hasText: bought })).toContainText('Night line');
  await expect(page.getByTestId('number-row').filter({ hasText: bought })).not.toContainText('Not kept');

  // Closing or reloading the tab with unsaved edits: the browser's own "Leave site?" question.
  await page.getByTestId('number-row').filter({ hasText: bought }).getByRole('link', { name: 'Edit routing' }).click();
  await page.getByLabel('Number label').fill('Still not kept');
  const asked = page.waitForEvent('dialog');
  await page.close({ runBeforeUnload: true });
  const dialog = await asked;
  expect(dialog.type()).toBe('beforeunload');
  await dialog.accept();
});
