/**
 * Alerts and favourite reports in the browser (spec 001 "Alerts", spec 002 "Favorite reports"; docs/alerts.md):
 * lower the missed-call thresholds in Alerts → Settings, let a caller from the Phone simulator go unanswered, see the
 * alert arrive live, dismiss it with a reason and find the dismissal in its history; then save a call report as a
 * favourite, rename it, open it and delete it.
 */
import { expect, test } from '@playwright/test';
import { signIn, api } from './helpers';

test('a missed-call alert arrives live, is dismissed with a reason, and its history shows it', async ({ page }) => {
  await signIn(page);
  await page.goto('/alerts');
  await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();

  // Settings: alert from the first missed call (1 % with at least 1 call).
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('textbox', { name: 'Missed share' }).fill('1');
  await page.getByRole('textbox', { name: 'With at least (calls)' }).fill('1');
  await page.getByRole('button', { name: 'Save thresholds' }).click();
  await expect(page.getByText('Alert settings updated')).toBeVisible();
  await page.getByRole('tab', { name: 'Alerts' }).click();

  // A fresh number of the demo company; a simulator caller hangs up unanswered.
  const companies = await api(page, 'get', '/api/companies');
  const companyId = (companies.body.data ?? companies.body)[0].id as number;
  const found = await api(page, 'get', '/api/numbers/search?type=local&areaCode=312&limit=20');
  const pick = found.body.data[Math.floor(Math.random() * found.body.data.length)];
  const bought = await api(page, 'post', '/api/numbers', { company_id: companyId, provider_id: pick.provider_id, number: pick.number });
  expect(bought.status, JSON.stringify(bought.body)).toBe(201);
  const call = await api(page, 'post', '/api/simulator/calls', { from: '+13125550199', to: bought.body.number, forwards: {} });
  expect(call.status, JSON.stringify(call.body)).toBe(200);

  // The alert arrives without a reload.
  const row = page.getByTestId('alert-row').filter({ hasText: /of calls missed in the last hour/ });
  await expect(row).toBeVisible({ timeout: 45_000 });
  await expect(page.getByTestId('alert-counts')).toContainText(/[1-9]\d* active/);

  // Open it, dismiss it with a reason.
  await row.getByRole('button', { name: /Open alert/ }).click();
  const detail = page.getByTestId('alert-detail');
  await expect(detail).toContainText('Missed calls');
  await detail.getByRole('button', { name: 'Dismiss' }).click();
  const dialog = page.getByRole('dialog', { name: 'Dismiss the alert' });
  await dialog.getByRole('button', { name: 'Dismiss' }).click();
  await expect(dialog.getByText('Choose why you dismiss the alert.')).toBeVisible();
  await dialog.getByRole('radio', { name: 'Already aware' }).check();
  await dialog.getByLabel('Comment').fill('The front desk was short-staffed');
  await dialog.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('Alert updated successfully')).toBeVisible();
  await expect(detail).toContainText('Dismissed: Already aware');
  const history = page.getByTestId('alert-history');
  await expect(history).toContainText('The monitor raised it');
  await expect(history).toContainText('dismissed it (Already aware)');
  await expect(history).toContainText('The front desk was short-staffed');

  // Closed: it left the active list and shows under Dismissed.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('alert-row').filter({ hasText: /of calls missed in the last hour/ })).toHaveCount(0);
  await page.getByText(/^Dismissed \(\d+\)$/).click();
  await expect(
    page
      .getByTestId('alert-row')
      .filter({ hasText: /of calls missed in the last hour/ })
      .first(),
  ).toContainText('Dismissed');
  await page.screenshot({ path: 'test-results/alerts-dismissed.png', fullPage: true });
});

test('a call report is saved as a favourite, renamed, opened and deleted', async ({ page }) => {
  await signIn(page);
  await page.goto('/reports?preset=7d');
  await page.getByRole('button', { name: 'Save as favorite' }).click();
  const save = page.getByRole('dialog', { name: 'Save as favorite' });
  await save.getByLabel('Name').fill('Last week by number');
  await save.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Favorite report saved')).toBeVisible();

  await page.goto('/favorite-reports');
  const row = page.getByTestId('favorite-row').filter({ hasText: 'Last week by number' });
  await expect(row).toBeVisible();
  await expect(row).toContainText('Call reports');

  await row.getByRole('button', { name: 'Rename Last week by number' }).click();
  const rename = page.getByRole('dialog', { name: 'Rename favorite' });
  await rename.getByLabel('Name').fill('Weekly calls');
  await rename.getByRole('button', { name: 'Rename' }).click();
  await expect(page.getByText('Favorite report updated')).toBeVisible();
  const renamed = page.getByTestId('favorite-row').filter({ hasText: 'Weekly calls' });
  await expect(renamed).toBeVisible();

  await renamed.getByRole('link', { name: 'Weekly calls', exact: true }).click();
  await expect(page).toHaveURL(/\/reports\?.*preset=7d.*group=number_day/);

  await page.goto('/favorite-reports');
  await page.getByRole('button', { name: 'Delete Weekly calls' }).click();
  await page.getByRole('dialog', { name: 'Delete the favorite?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Favorite report deleted')).toBeVisible();
  await expect(page.getByTestId('favorite-row').filter({ hasText: 'Weekly calls' })).toHaveCount(0);
});

test('alerts and favourite reports fit a phone-sized screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page);
  for (const path of ['/alerts', '/alerts?tab=settings', '/favorite-reports']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, path).toBeLessThanOrEqual(0);
    await page.screenshot({ path: `test-results/phone-${path.replace(/[/?=]/g, '_')}.png`, fullPage: true });
  }
});
