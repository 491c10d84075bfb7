/**
 * Contact import in the browser (docs/contacts.md "Import"): a Google Contacts CSV export with a
 * duplicate row and an invalid row is mapped with no help, "Fill empty fields" is chosen, the counts
 * add up and the per-row report downloads as CSV.
 */
import fs from 'node:fs';
import { expect, test } from '@playwright/test';
import { signIn } from './helpers';

test('imports a Google Contacts export: duplicates fill empty fields, counts add up, report downloads', async ({ page }) => {
  await signIn(page);
  const suffix = String(1000 + Math.floor(Math.random() * 8999));
  const csv = [
    'Name,Given Name,Family Name,Notes,Group Membership,E-mail 1 - Type,E-mail 1 - Value,Phone 1 - Type,Phone 1 - Value,Organization 1 - Name',
    `Ada Import${suffix},Ada,Import${suffix},,* myContacts,,,Mobile,+1 312-555-${suffix},Engines`,
    `Ada Again${suffix},Ada,Again,,* myContacts,Home,ada${suffix}@example.com,Mobile,(312) 555-${suffix} ::: (312) 555-0199,`,
    `Broken${suffix},,,,* myContacts,,,Mobile,12345,`,
    `Grace Import${suffix},Grace,Import${suffix},,* myContacts,,,Work,+1 646-555-${suffix},`,
  ].join('\n');

  await page.goto('/contacts');
  await page.getByRole('button', { name: 'Import' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import contacts' });
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Choose file' }).click();
  await (await chooser).setFiles({ name: 'contacts.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });

  // Mapped with no help: the preview shows the file, Next is enabled.
  await expect(dialog.getByTestId('import-preview')).toContainText(`Ada Import${suffix}`);
  await expect(dialog.getByTestId('import-error')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Next' }).click();

  await dialog.getByRole('radio', { name: 'Fill empty fields' }).check();
  await dialog.getByRole('button', { name: 'Start import' }).click();

  const summary = dialog.getByTestId('import-summary');
  await expect(summary).toContainText('2 added · 1 updated · 0 skipped duplicates · 1 invalid — 4 rows', { timeout: 30_000 });

  const download = page.waitForEvent('download');
  await summary.getByRole('link', { name: 'Download the report' }).click();
  const file = await (await download).path();
  const report = fs.readFileSync(file!, 'utf8').replace(/^\uFEFF/, '');
  expect(report.split(/\r?\n/)[0]).toBe('Row,Outcome,Reason,Name,Number');
  expect(report).toContain('3,updated,"Duplicate of row 2: filled email, notes"');
  expect(report).toContain('4,invalid,Invalid phone number: 12345');

  // The summary's Close button (the dialog's corner ✕ is named "Close" too).
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await page
    .getByPlaceholder(/search/i)
    .first()
    .fill(`Import${suffix}`);
  await expect(page.getByText(`Ada Import${suffix}`)).toBeVisible();
  await expect(page.getByText(`Broken${suffix}`)).toHaveCount(0);
});
