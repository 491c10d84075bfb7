/**
 * Faxes in the browser (docs/fax.md): a fax number bought from the Numbers screen, a fax sent to
 * it from the Phone simulator's "Send a fax" panel arrives on /fax as a PDF that opens in the
 * viewer, and shows in the inbox thread.
 */
import { expect, test } from '@playwright/test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { signIn } from './helpers';

async function twoPagePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of ['Purchase order 4471', 'Terms and signature']) doc.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 24, font });
  return Buffer.from(await doc.save());
}

test('a fax sent from the simulator arrives as a PDF that opens in the viewer', async ({ page }) => {
  await signIn(page);

  // Buy a fax number.
  await page.getByRole('link', { name: 'Numbers' }).click();
  await page.getByRole('button', { name: 'Buy a number' }).first().click();
  await page.getByRole('dialog').getByText('Fax', { exact: true }).click();
  await page.getByLabel('Area code').fill('718');
  await page.getByRole('button', { name: 'Search' }).click();
  const result = page.getByTestId('number-result').first();
  await expect(result).toBeVisible();
  const bought = (await result.innerText()).match(/\(718\) \d{3}-\d{4}/)![0];
  await result.getByRole('button', { name: 'Buy', exact: true }).click();
  await page
    .getByTestId('buy-confirmation')
    .getByRole('button', { name: `Buy ${bought}` })
    .click();
  await expect(page.getByTestId('number-row').filter({ hasText: bought })).toBeVisible();
  await expect(page.getByTestId('number-row').filter({ hasText: bought })).toContainText('Fax number');

  // The simulator's fax machine sends a 2-page PDF to it.
  await page.goto('/simulator');
  await page.getByLabel('Your outside phone number').fill('+12025550177');
  await page
    .getByRole('textbox', { name: 'Company number', exact: true })
    .or(page.getByRole('combobox', { name: 'Company number', exact: true }))
    .first()
    .click();
  await page.getByRole('option').filter({ hasText: bought }).first().click();
  const chooser = page.waitForEvent('filechooser');
  await page.getByLabel('PDF to fax').click();
  await (await chooser).setFiles({ name: 'order.pdf', mimeType: 'application/pdf', buffer: await twoPagePdf() });
  await page.getByRole('button', { name: 'Send fax' }).click();
  await expect(page.getByText('Fax sent. It arrives on the Faxes screen and in the Inbox.')).toBeVisible();

  // It arrives on /fax, received, 2 pages, and opens in the viewer.
  await page.goto('/fax');
  const row = page.getByRole('row').filter({ hasText: '(202) 555-0177' }).first();
  await expect(row).toContainText('Received', { timeout: 20_000 });
  await expect(row.getByRole('cell').nth(4)).toHaveText('2');
  await row.getByRole('button', { name: 'View' }).click();
  const viewer = page.getByRole('dialog');
  await expect(viewer.getByText('2 pages')).toBeVisible();
  await expect(viewer.getByRole('img', { name: 'Page 1 of 2' })).toBeVisible();
  await expect(viewer.getByRole('img', { name: 'Page 2 of 2' })).toBeVisible();
  await page.screenshot({ path: 'test-results/fax-viewer.png' });
});
