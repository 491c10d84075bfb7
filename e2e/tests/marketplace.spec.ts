/**
 * The number marketplace in the browser (docs/marketplace.md "Screens"): the demo owner lists one of its numbers
 * (the fee preview shown), finds it under "Mine", edits its price, sees its listing history, downloads
 * `marketplace_report.csv`, withdraws it after a confirmation; the page works at phone width and passes axe.
 */
import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('marketplace: list a number, edit its price, see its history and the report, withdraw it', async ({ page }) => {
  await signIn(page);
  await page.goto('/marketplace');
  await expect(page.getByRole('heading', { name: 'Number marketplace', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Numbers for sale' })).toBeVisible();

  await page.getByRole('button', { name: 'List a number' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'List a number' });
  await dialog
    .getByRole('textbox', { name: 'Number', exact: true })
    .or(dialog.getByRole('combobox', { name: 'Number', exact: true }))
    .first()
    .click();
  const option = page.getByRole('option').first();
  const optionText = (await option.textContent()) ?? '';
  const phone = optionText.split(' · ')[0]!.trim();
  await option.click();
  await dialog.getByRole('textbox', { name: 'Price ($)' }).fill('250');
  await expect(dialog).toContainText('You receive $225.00 as account credit after the 10% marketplace fee.');
  await dialog.getByRole('textbox', { name: 'Title' }).fill('Easy local number');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Your number is listed on the marketplace.')).toBeVisible();

  await page.getByText('Mine', { exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your listings and purchases' })).toBeVisible();
  const row = page.getByRole('row').filter({ hasText: phone });
  await expect(row).toContainText('$250.00');
  await expect(row).toContainText('Listed');

  await row.getByRole('button', { name: `Edit listing of ${phone}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit listing' });
  await edit.getByRole('textbox', { name: 'Price ($)' }).fill('300');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('$300.00');

  await row.getByRole('button', { name: `Listings of ${phone}` }).click();
  const history = page.getByRole('dialog', { name: `Listings of ${phone}` });
  await expect(history.getByRole('table', { name: 'Listings' })).toContainText('$300.00');
  await page.keyboard.press('Escape');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download report' }).click()]);
  expect(download.suggestedFilename()).toBe('marketplace_report.csv');
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\r\n')[0]).toBe('Number,Title,Role,State,Price,Fee,Net,Listed at,Sold at,Invoice');
  expect(csv).toContain('Easy local number,Seller,Listed,$300.00');

  // Phone width: the page still works (the table scrolls inside its card) and has no serious accessibility issue.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('button', { name: `Withdraw ${phone}` })).toBeAttached();
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);

  await page.getByRole('button', { name: `Withdraw ${phone}` }).click();
  const confirm = page.getByRole('dialog', { name: `Withdraw ${phone}?` });
  await confirm.getByRole('button', { name: 'Withdraw' }).click();
  await expect(page.getByText('Your number was withdrawn from the marketplace.')).toBeVisible();
  await expect(row).toContainText('Withdrawn');
  await expect(row.getByRole('button', { name: `List ${phone} again` })).toBeVisible();
});
