/**
 * Billing in the browser (docs/billing.md "Screens"), sandbox gateway: a declined test card shows the card-processing
 * message, a card needing 3-D Secure is authenticated in the sandbox's dialog, a good card is saved (only brand and
 * last four shown); the plan is changed after its preview; invoice e-mails and an add-on are saved; the Billing item is
 * in the navigation; the number-limit increase request is reached from Billing and from the Numbers page. Then a number
 * bought on the marketplace (docs/marketplace.md) is invoiced at once and the invoice's PDF is downloaded and read.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import zlib from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { signIn } from './helpers';

const year = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');

async function addCard(page: import('@playwright/test').Page, number: string) {
  await page.getByRole('button', { name: /^(Add|Replace) card$/ }).click();
  const dialog = page.getByRole('dialog', { name: /card/ });
  await dialog.getByRole('textbox', { name: 'Card number' }).fill(number);
  await dialog.getByRole('textbox', { name: 'Expiry (MM/YY)' }).fill(`12/${year}`);
  await dialog.getByRole('textbox', { name: 'CVC' }).fill('123');
  await dialog.getByRole('button', { name: 'Save card' }).click();
  return dialog;
}

test('billing: cards through the sandbox gateway and a plan change with its preview', async ({ page }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Billing' }).click();
  await expect(page.getByRole('heading', { name: 'Billing', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: /^Plan: / })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Usage this period' })).toBeVisible();
  await expect(page.getByText('Loading usage…')).toHaveCount(0);
  // WCAG 2.1 A/AA as the accessibility spec checks it: no critical or serious violation on the page.
  const axe = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(
    axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);

  const declined = await addCard(page, '4000 0000 0000 0002');
  await expect(declined.getByRole('alert')).toHaveText('There was an issue processing your card. Please contact your card issuer, then try again.');
  await page.keyboard.press('Escape');

  await addCard(page, '4000 0025 0000 3155');
  const auth = page.getByRole('dialog', { name: 'Authenticate your card' });
  await auth.getByRole('button', { name: 'Complete authentication' }).click();
  await expect(page.getByTestId('card-on-file')).toHaveText(`VISA ending in 3155, expires 12/20${year}`);

  await addCard(page, '4242 4242 4242 4242');
  await expect(page.getByTestId('card-on-file')).toHaveText(`VISA ending in 4242, expires 12/20${year}`);

  await page.getByRole('combobox', { name: 'Change plan to' }).click();
  await page.getByRole('option', { name: /^Premium — \$79\.00\/month$/ }).click();
  const change = page.getByRole('dialog', { name: 'Change plan' });
  await expect(change.getByRole('table', { name: 'Proration preview' })).toContainText('Charged now');
  await change.getByRole('button', { name: 'Confirm change' }).click();
  await expect(page.getByRole('heading', { name: 'Plan: Premium' })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByText('Your plan has been changed.')).toBeVisible();

  // Invoice e-mails (customer update) and an add-on (feature toggle), with the spec's messages.
  const mails = page.getByRole('region', { name: 'Invoice e-mails' });
  const cc = mails.getByLabel('Copies to (cc)');
  await cc.fill('books@example.test');
  await cc.press('Enter');
  await mails.getByRole('button', { name: 'Save invoice e-mails' }).click();
  await expect(page.getByText('Information updated successfully')).toBeVisible();
  const addOns = page.getByRole('region', { name: 'Add-ons' });
  const recording = addOns.getByRole('switch', { name: 'Call recording ($10.00/month)' });
  const wasOn = await recording.isChecked();
  await recording.click({ force: true });
  await expect(page.getByText(wasOn ? 'Feature disabled successfully' : 'Feature enabled successfully')).toBeVisible();
  await expect(recording).toBeChecked({ checked: !wasOn });
});

test('number limit: the increase request is reached from Billing and from the Numbers page', async ({ page }) => {
  await signIn(page);
  await page.goto('/billing');
  const card = page.getByRole('region', { name: 'Number limit' });
  await expect(card.getByText('Numbers in use')).toBeVisible();
  await card.getByRole('link', { name: 'Request a limit increase' }).click();
  await expect(page).toHaveURL(/\/numbers\?dialog=number-limit$/);
  const dialog = page.getByRole('dialog', { name: 'Request a limit increase' });
  await expect(dialog.getByTestId('number-limit-usage')).toHaveText(/^\d[\d,]* of \d[\d,]*$/);
  const limit = Number(((await dialog.getByTestId('number-limit-usage').textContent()) ?? '').split(' of ')[1]!.replace(/,/g, ''));
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/numbers$/);

  await page.getByRole('button', { name: 'Number limit', exact: true }).click();
  await dialog.getByRole('textbox', { name: 'Numbers you need in all' }).fill(String(limit + 20));
  await dialog.getByRole('textbox', { name: 'Why' }).fill('A second showroom opens next month.');
  await dialog.getByRole('button', { name: 'Send request' }).click();
  await expect(page.getByText('Your request to increase the number limit has been submitted.')).toBeVisible();
  await expect(dialog).toBeHidden();
});

async function xsrfHeaders(page: Page): Promise<Record<string, string>> {
  const c = (await page.context().cookies()).find((x) => x.name === 'XSRF-TOKEN');
  return { accept: 'application/json', ...(c ? { 'X-XSRF-TOKEN': decodeURIComponent(c.value) } : {}) };
}

/** The text drawn in a PDF (pdfkit): every content stream inflated, the hex strings of its TJ/Tj operators decoded. */
function pdfText(pdf: Buffer): string {
  const out: string[] = [];
  const raw = pdf.toString('latin1');
  const re = /stream\r?\n/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(raw))) {
    const start = m.index + m[0].length;
    const bytes = Buffer.from(raw.slice(start, raw.indexOf('endstream', start)), 'latin1');
    let content: string;
    try {
      content = zlib.inflateSync(bytes).toString('latin1');
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      content = bytes.toString('latin1');
    }
    for (const op of content.matchAll(/\[(.*?)\]\s*TJ|<([0-9a-fA-F]+)>\s*Tj/g)) {
      const hex = op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]+)>/g)].map((h) => h[1]).join('') : op[2]!;
      out.push(Buffer.from(hex, 'hex').toString('latin1'));
    }
  }
  return out.join('');
}

test('billing: a marketplace purchase is invoiced at once and its PDF downloads with the invoice number', async ({ page, browser }) => {
  // A seller: another account (public signup) that buys a number and lists it on the marketplace.
  const sellerCtx = await browser.newContext();
  const seller = await sellerCtx.newPage();
  await seller.request.get('/api/csrf-cookie');
  const tag = crypto.randomBytes(3).toString('hex');
  const signup = await seller.request.post('/api/client/signup/create', {
    headers: await xsrfHeaders(seller),
    data: { first_name: 'Vera', last_name: 'Seller', email: `seller+${tag}@example.test`, password: 'seller-password-2026', company_name: 'Vanity Seller Co' },
  });
  expect(signup.status()).toBe(201);
  const sellerCompany = ((await signup.json()) as { company: { id: number } }).company.id;
  const found = (await (await seller.request.get('/api/numbers/search?type=local&areaCode=737&limit=20')).json()) as {
    data: Array<{ number: string; provider_id: number }>;
  };
  const pick = found.data[Math.floor(Math.random() * found.data.length)]!;
  const bought = await seller.request.post('/api/numbers', {
    headers: await xsrfHeaders(seller),
    data: { company_id: sellerCompany, provider_id: pick.provider_id, number: pick.number },
  });
  expect(bought.status()).toBe(201);
  const title = `Memorable ${tag}`;
  const listed = await seller.request.post(`/api/companies/${sellerCompany}/marketplace/numbers`, {
    headers: await xsrfHeaders(seller),
    data: { number_id: ((await bought.json()) as { id: number }).id, price_cents: 12_500, title },
  });
  expect(listed.status(), await listed.text()).toBe(200);
  await sellerCtx.close();

  // The demo owner: a card on file, then the number bought on the marketplace.
  await signIn(page);
  await page.goto('/billing');
  await addCard(page, '4242 4242 4242 4242');
  await expect(page.getByTestId('card-on-file')).toContainText('ending in 4242');
  await page.goto('/marketplace');
  await expect(page.getByRole('heading', { name: 'Number marketplace', level: 1 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Search', exact: true }).fill(title);
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('$125.00');
  await row.getByRole('button', { name: /^Buy / }).click();
  const confirm = page.getByRole('dialog', { name: /^Buy / });
  await expect(confirm).toContainText('is charged now to the card on file');
  await confirm.getByRole('button', { name: 'Buy for $125.00' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByText(/The number is yours: it was added to your numbers\. Invoice SB-\d{6}\./)).toBeVisible();

  // The invoice: listed on Billing, its PDF downloaded and read.
  await page.goto('/billing');
  const invoices = page.getByRole('table', { name: 'Invoices' });
  const link = invoices
    .getByRole('row')
    .filter({ hasText: '$125.00' })
    .first()
    .getByRole('link', { name: /^Download SB-\d{6}$/ });
  await expect(link).toBeVisible();
  const invoiceNumber = ((await link.textContent()) ?? '').replace('Download ', '');
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe(`invoice-${invoiceNumber}.pdf`);
  const pdf = fs.readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  const text = pdfText(pdf);
  expect(text).toContain(invoiceNumber);
  expect(text).toContain('$125.00');
});
